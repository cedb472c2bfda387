package io.eventplane.gateway.auth.authn;

import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's impersonation filter: {@code Impersonate-User}, {@code Impersonate-Group},
 * {@code Impersonate-Uid} and {@code Impersonate-Extra-<key>} make the request act as another user, each one allowed
 * by the {@link ImpersonationCheck} (the verb {@code impersonate}) or 403.
 */
final class Impersonation {
    private static final String EXTRA_PREFIX = "impersonate-extra-";

    private Impersonation() {
    }

    static Authentication.Identity apply(UserInfo real, Map<String, List<String>> headers,
                                         ImpersonationCheck check) {
        String name = first(headers.get("impersonate-user"));
        List<String> groups = values(headers.get("impersonate-group"));
        String uid = first(headers.get("impersonate-uid"));
        Map<String, List<String>> extra = extras(headers);
        if (name == null) {
            if (!groups.isEmpty() || uid != null || !extra.isEmpty()) {
                throw new ApiException(Statuses.internal("requested " + (groups.isEmpty() ? "extra" : "groups "
                        + groups) + " without impersonating a user"));
            }
            return new Authentication.Identity(real, null);
        }
        List<String> granted = new ArrayList<>();
        String namespace = null;
        if (name.startsWith(ServiceAccountTokens.PREFIX)) {
            String[] nsName = name.substring(ServiceAccountTokens.PREFIX.length()).split(":", 2);
            if (nsName.length == 2) {
                namespace = nsName[0];
                require(check, real, "serviceaccounts", namespace, nsName[1]);
                granted.addAll(List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace));
            } else {
                require(check, real, "users", null, name);
            }
        } else {
            require(check, real, "users", null, name);
        }
        for (String g : groups) {
            require(check, real, "groups", null, g);
            granted.add(g);
        }
        if (uid != null) {
            require(check, real, "uids", null, uid);
        }
        extra.forEach((k, vs) -> vs.forEach(v -> require(check, real, "userextras/" + k, null, v)));
        if (!name.equals(UserInfo.ANONYMOUS) && !granted.contains(UserInfo.AUTHENTICATED)) {
            granted.add(UserInfo.AUTHENTICATED);
        } else if (name.equals(UserInfo.ANONYMOUS) && !granted.contains(UserInfo.UNAUTHENTICATED)) {
            granted.add(UserInfo.UNAUTHENTICATED);
        }
        return new Authentication.Identity(new UserInfo(name, uid, granted, extra), real);
    }

    private static void require(ImpersonationCheck check, UserInfo real, String resource, String namespace,
                                String name) {
        if (check.mayImpersonate(real, resource, namespace, name)) {
            return;
        }
        String plural = resource.startsWith("userextras/") ? "userextras" : resource;
        String sub = resource.startsWith("userextras/") ? resource.substring("userextras/".length()) : "";
        String where = namespace == null ? "at the cluster scope" : "in the namespace \"" + namespace + "\"";
        String group = resource.equals("uids") || plural.equals("userextras") ? "authentication.k8s.io" : "";
        String message = plural + " \"" + name + "\" is forbidden: User \"" + real.name()
                + "\" cannot impersonate resource \"" + (sub.isEmpty() ? plural : plural + "/" + sub)
                + "\" in API group \"" + group + "\" " + where;
        throw new ApiException(new KubeStatus(403, "Forbidden", message,
                new KubeStatus.Details(name, group, plural, null)));
    }

    private static Map<String, List<String>> extras(Map<String, List<String>> headers) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        headers.forEach((h, vs) -> {
            if (h.startsWith(EXTRA_PREFIX) && h.length() > EXTRA_PREFIX.length()) {
                String key = java.net.URLDecoder.decode(h.substring(EXTRA_PREFIX.length()),
                        java.nio.charset.StandardCharsets.UTF_8);
                out.put(key, values(vs));
            }
        });
        return out;
    }

    private static String first(List<String> v) {
        return v == null || v.isEmpty() || v.get(0).isBlank() ? null : v.get(0).trim();
    }

    private static List<String> values(List<String> v) {
        List<String> out = new ArrayList<>();
        if (v != null) {
            for (String s : v) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }
}
