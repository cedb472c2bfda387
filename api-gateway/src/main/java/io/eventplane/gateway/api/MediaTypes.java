package io.eventplane.gateway.api;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** What an {@code Accept} header asks for, in Kubernetes' terms ({@code as=Table}, aggregated discovery). */
public final class MediaTypes {
    public static final String AGGREGATED_DISCOVERY = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

    private MediaTypes() {
    }

    private record Entry(String type, Map<String, String> params) {
    }

    /**
     * The Table version ({@code v1} or {@code v1beta1}) when the client's first acceptable JSON media type is a
     * meta.k8s.io Table, else null.
     */
    public static String tableVersion(String accept) {
        if (accept == null) {
            return null;
        }
        for (String part : accept.split(",")) {
            Entry e = parse(part);
            if (!isJson(e.type())) {
                continue;
            }
            String as = e.params().get("as");
            if (as == null) {
                return null; // plain JSON comes first
            }
            if (as.equals("Table") && "meta.k8s.io".equals(e.params().get("g"))) {
                String v = e.params().getOrDefault("v", "v1");
                if (v.equals("v1") || v.equals("v1beta1")) {
                    return v;
                }
            }
        }
        return null;
    }

    /** Whether the client asks for the aggregated discovery document (apidiscovery.k8s.io/v2). */
    public static boolean wantsAggregatedDiscovery(String accept) {
        if (accept == null) {
            return false;
        }
        for (String part : accept.split(",")) {
            Entry e = parse(part);
            if (isJson(e.type()) && "APIGroupDiscoveryList".equals(e.params().get("as"))
                    && "apidiscovery.k8s.io".equals(e.params().get("g")) && "v2".equals(e.params().get("v"))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isJson(String type) {
        return type.equals("application/json") || type.equals("*/*") || type.equals("application/*");
    }

    private static Entry parse(String part) {
        String[] pieces = part.split(";");
        Map<String, String> params = new HashMap<>();
        for (int i = 1; i < pieces.length; i++) {
            String[] kv = pieces[i].split("=", 2);
            if (kv.length == 2) {
                params.put(kv[0].trim(), kv[1].trim());
            }
        }
        return new Entry(pieces[0].trim().toLowerCase(Locale.ROOT), params);
    }
}
