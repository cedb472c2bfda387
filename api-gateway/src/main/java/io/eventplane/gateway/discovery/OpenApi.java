package io.eventplane.gateway.discovery;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.api.Json;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * A minimal OpenAPI v3, without schemas: kubectl's default {@code apply} (validate=strict) only checks that each
 * kind's PATCH operation lists a {@code fieldValidation} parameter, then relies on the server's field validation.
 */
public final class OpenApi {
    private OpenApi() {
    }

    /** {@code /openapi/v3}: one entry per group-version, with a content hash in the URL as kube-apiserver does. */
    public static ObjectNode index() {
        ObjectNode n = Json.object();
        ObjectNode paths = n.putObject("paths");
        paths.putObject("api/v1").put("serverRelativeURL", "/openapi/v3/api/v1?hash=" + hash(document("", "v1")));
        Discovery.groups().forEach((g, versions) -> versions.forEach(v -> paths.putObject("apis/" + g + "/" + v)
                .put("serverRelativeURL", "/openapi/v3/apis/" + g + "/" + v + "?hash=" + hash(document(g, v)))));
        return n;
    }

    /** The document of {@code api/v1} or {@code apis/{group}/{version}}, if served. */
    public static Optional<ObjectNode> forPath(String gvPath) {
        if (gvPath.equals("api/v1")) {
            return Optional.of(document("", "v1"));
        }
        String[] parts = gvPath.split("/");
        if (parts.length == 3 && parts[0].equals("apis") && Discovery.serves(parts[1], parts[2])) {
            return Optional.of(document(parts[1], parts[2]));
        }
        return Optional.empty();
    }

    static ObjectNode document(String group, String version) {
        ObjectNode doc = Json.object();
        doc.put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", VersionInfo.GIT_VERSION);
        ObjectNode paths = doc.putObject("paths");
        for (KindInfo k : Kinds.served()) {
            if (!k.group().equals(group) || !k.version().equals(version)) {
                continue;
            }
            String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
            String object = prefix + (k.namespaced() ? "/namespaces/{namespace}/" : "/") + k.plural() + "/{name}";
            paths.putObject(object).set("patch", patchOperation(k, k.kind()));
            if (k.hasStatus()) {
                paths.putObject(object + "/status").set("patch", patchOperation(k, k.kind()));
            }
        }
        doc.putObject("components").putObject("schemas");
        return doc;
    }

    private static ObjectNode patchOperation(KindInfo k, String kind) {
        ObjectNode op = Json.object();
        op.put("operationId", "patch" + k.kind());
        op.putObject("x-kubernetes-group-version-kind").put("group", k.group()).put("version", k.version())
                .put("kind", kind);
        var params = op.putArray("parameters");
        for (String p : new String[]{"fieldValidation", "fieldManager", "dryRun", "force"}) {
            params.addObject().put("name", p).put("in", "query").putObject("schema").put("type", "string");
        }
        op.putObject("responses").putObject("200").put("description", "OK");
        return op;
    }

    static String hash(ObjectNode doc) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Json.bytes(doc));
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
