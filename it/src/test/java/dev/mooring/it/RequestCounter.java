package dev.mooring.it;

import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Counts every request (reads included) an ApiClient sends, by method and path. */
final class RequestCounter {

    final List<String> requests = new CopyOnWriteArrayList<>();

    /** A client of the testbed whose requests are counted. */
    ApiClient client() {
        ApiClient client = Testbed.client();
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
            requests.add(chain.request().method() + " " + chain.request().url().encodedPath());
            return chain.proceed(chain.request());
        }).build());
        return client;
    }
}
