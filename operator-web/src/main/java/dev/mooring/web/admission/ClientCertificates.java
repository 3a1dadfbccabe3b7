package dev.mooring.web.admission;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.annotation.WebFilter;
import java.io.IOException;
import java.lang.reflect.Method;
import java.security.cert.X509Certificate;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Puts the TLS client certificate chain of every HTTPS request under {@link #ATTRIBUTE}, for the
 * admission webhooks' check of who calls them ({@code ClientTrust}), and applies the same check to
 * Mooring's own paths on that port ({@code /mooring/...}): with client certificates required, a
 * chain the webhooks would refuse is answered 403 there too. (Liberty's handshake accepts the
 * serving certificate as a client, since its key store is also its trust store; Liberty's own
 * {@code /health} and {@code /metrics} are outside this application and not checked.)
 *
 * <p>Why not the servlet specification's {@code jakarta.servlet.request.X509Certificate} alone:
 * Liberty fills that attribute only for applications with application security enabled
 * (the {@code appSecurity} feature); Mooring has none. Liberty's request object still knows the
 * chain and has a public {@code getPeerCertificates()} method, which this filter calls by
 * reflection when the standard attribute is empty (as Mooring reaches Liberty's
 * {@code LogRecordContext}). Where neither gives a chain, the request has none and a webhook
 * that requires one refuses it: the check fails closed.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class ClientCertificates implements Filter {

    /** The request attribute with the chain ({@code X509Certificate[]}, leaf first), absent without one. */
    public static final String ATTRIBUTE = "dev.mooring.webhook.client-certificates";

    private static final Logger LOG = Logger.getLogger(ClientCertificates.class.getName());
    private static final String STANDARD = "jakarta.servlet.request.X509Certificate";

    /** The lookup of the request class seen first; requests of one server are of one class. */
    private volatile Lookup lookup;

    private record Lookup(Class<?> requestClass, Method method) {
    }

    @jakarta.inject.Inject
    dev.mooring.runtime.AdmissionService admission;

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (request.isSecure()) {
            X509Certificate[] certificates = chainOf(request);
            if (certificates != null && certificates.length > 0) {
                request.setAttribute(ATTRIBUTE, certificates);
            }
            // Mooring's own paths on the HTTPS port get the webhooks' client check (the webhooks answer it themselves)
            String refusal = isMooringPath(request) ? admission.clientRefusal(certificates) : null;
            if (refusal != null && response instanceof jakarta.servlet.http.HttpServletResponse http) {
                http.setStatus(403);
                http.setContentType("text/plain;charset=UTF-8");
                http.getWriter().write("Client certificate refused: " + refusal + "\n");
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** True for {@code /mooring/...} (the runtime API, secure metrics), not for a webhook's path. */
    private static boolean isMooringPath(ServletRequest request) {
        return request instanceof jakarta.servlet.http.HttpServletRequest http && http.getRequestURI() != null
                && http.getRequestURI().startsWith("/mooring/");
    }

    private X509Certificate[] chainOf(ServletRequest request) {
        if (request.getAttribute(STANDARD) instanceof X509Certificate[] standard) {
            return standard;
        }
        Method method = method(request.getClass());
        if (method == null) {
            return null;
        }
        try {
            return method.invoke(request) instanceof X509Certificate[] certificates ? certificates : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.FINE, "The client certificates of a request could not be read", e);
            return null;
        }
    }

    private Method method(Class<?> requestClass) {
        Lookup known = lookup;
        if (known != null && known.requestClass() == requestClass) {
            return known.method();
        }
        Method method;
        try {
            method = requestClass.getMethod("getPeerCertificates");
            if (!X509Certificate[].class.equals(method.getReturnType())) {
                method = null;
            }
        } catch (NoSuchMethodException e) {
            method = null;
        }
        lookup = new Lookup(requestClass, method);
        return method;
    }
}
