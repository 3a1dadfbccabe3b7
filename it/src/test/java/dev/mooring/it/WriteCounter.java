package dev.mooring.it;

import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Counts the write requests (anything but GET) an ApiClient sends, by method and path. */
final class WriteCounter {

    final List<String> writes = new CopyOnWriteArrayList<>();

    /** A client of the testbed whose writes are counted. */
    ApiClient client() {
        ApiClient client = Testbed.client();
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
            if (!"GET".equals(chain.request().method())) {
                writes.add(chain.request().method() + " " + chain.request().url().encodedPath());
            }
            return chain.proceed(chain.request());
        }).build());
        return client;
    }

    int count() {
        return writes.size();
    }
}
