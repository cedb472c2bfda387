package io.eventplane.gateway.discovery;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.gateway.wire.Json;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * OpenAPI v3, one document per group-version, with the kinds' schemas generated from Avro ({@link OpenApiSchemas}):
 * {@code kubectl explain} walks them, and kubectl's default {@code apply} (validate=strict) finds the
 * {@code fieldValidation} parameter on each kind's PATCH and relies on the server's field validation.
 *
 * <p>The PATCH operations deliberately declare no request body: kubectl then computes strategic merge patches from
 * its compiled-in Kubernetes types (exact patch tags) instead of from this document.
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
        ObjectNode schemas = Json.object();
        for (KindInfo k : Discovery.servedKinds()) {
            if (!k.group().equals(group) || !k.version().equals(version)) {
                continue;
            }
            Optional<CustomKinds.CustomKind> custom = k.type() == CustomObject.class
                    ? CustomKinds.byResource(group, version, k.plural()) : Optional.empty();
            String root = custom.isPresent() ? CustomKindSchemas.addKind(schemas, custom.get())
                    : OpenApiSchemas.addKind(schemas, k);
            String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
            String collection = prefix + (k.namespaced() ? "/namespaces/{namespace}/" : "/") + k.plural();
            String object = collection + "/{name}";
            paths.putObject(collection).set("get", readOperation(k, "list", root, true));
            ObjectNode item = paths.putObject(object);
            item.set("get", readOperation(k, "read", root, false));
            item.set("patch", patchOperation(k, k.objectKind()));
            if (k.hasStatus()) {
                ObjectNode st = paths.putObject(object + "/status");
                st.set("get", readOperation(k, "readStatus", root, false));
                st.set("patch", patchOperation(k, k.objectKind()));
            }
        }
        doc.putObject("components").set("schemas", schemas);
        return doc;
    }

    /** GET of an object or a list; the response names the kind's schema (the list one as items of a list). */
    private static ObjectNode readOperation(KindInfo k, String verb, String root, boolean list) {
        ObjectNode op = Json.object();
        op.put("operationId", verb + k.objectKind());
        op.put("x-kubernetes-action", list ? "list" : "get");
        op.putObject("x-kubernetes-group-version-kind").put("group", k.group()).put("version", k.version())
                .put("kind", k.objectKind());
        ObjectNode schema = op.putObject("responses").putObject("200").put("description", "OK")
                .putObject("content").putObject("application/json").putObject("schema");
        if (list) {
            schema.put("type", "object");
            ObjectNode items = schema.putObject("properties").putObject("items");
            items.put("type", "array");
            items.putObject("items").put("$ref", OpenApiSchemas.REF + root);
        } else {
            schema.put("$ref", OpenApiSchemas.REF + root);
        }
        return op;
    }

    private static ObjectNode patchOperation(KindInfo k, String kind) {
        ObjectNode op = Json.object();
        op.put("operationId", "patch" + k.objectKind());
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
