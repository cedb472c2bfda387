package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.Requests;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.meta.NameSuffixes;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Verb;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/** POST (create), PUT (update, status) and pods/binding: decode, build a command, submit, answer. */
final class WriteHandler {
    /** The alphabet of generateName suffixes: no vowels, no look-alikes (as Kubernetes). */
    private static final int GENERATE_ATTEMPTS = 3;
    private static final int UPDATE_ATTEMPTS = 5;
    private final Backend backend;
    private final Submitter submitter;
    private final SecureRandom random = new SecureRandom();

    WriteHandler(Backend backend, Submitter submitter) {
        this.backend = backend;
        this.submitter = submitter;
    }

    ApiResponse create(ApiRequest request, ResourcePath path) {
        KindInfo kind = path.kind();
        BodyDecoder.Body<SpecificRecord> body = BodyDecoder.object(request, kind);
        ObjectMeta meta = ObjectAccess.meta(body.object());
        String given = meta.getName();
        String generate = meta.getGenerateName();
        if ((given == null || given.isEmpty()) && (generate == null || generate.isEmpty())) {
            throw new ApiException(Statuses.invalid(kind, "", List.of(new Cause("FieldValueRequired",
                    "metadata.name: Required value: name or generateName is required", "metadata.name"))));
        }
        String namespace = requireNamespace(kind, path, meta);
        if (kind.namespaced()) {
            requireLiveNamespace(kind, namespace, given == null || given.isEmpty() ? generate : given);
        }
        boolean generated = given == null || given.isEmpty();
        for (int attempt = 1; ; attempt++) {
            String name = generated ? generate + suffix() : given;
            SpecificRecord object = ObjectAccess.withMeta(body.object(), ObjectMeta.newBuilder(meta).setName(name)
                    .setNamespace(kind.namespaced() ? namespace : null).build());
            object = Ownership.recordUpdate(request, kind, null, object, "", backend.clock().instant());
            try {
                Requests.Result r = submitter.forRequest(request).put(Verb.CREATE, kind, namespace, name, object);
                return ApiResponse.json(201, Json.encodeObject(kind, (SpecificRecord) r.object().getObject()))
                        .withWarnings(body.warnings());
            } catch (ApiException e) {
                // A generated name that is taken is drawn again, as kube-apiserver does.
                if (!generated || attempt >= GENERATE_ATTEMPTS || !"AlreadyExists".equals(e.status().reason())) {
                    throw e;
                }
            }
        }
    }

    /** PUT of the object or of its status subresource. */
    ApiResponse update(ApiRequest request, ResourcePath path, boolean status) {
        KindInfo kind = path.kind();
        if (status && !kind.hasStatus()) {
            throw new ApiException(Statuses.noSuchResource());
        }
        BodyDecoder.Body<SpecificRecord> body = BodyDecoder.object(request, kind);
        ObjectMeta meta = ObjectAccess.meta(body.object());
        if (meta.getName() != null && !meta.getName().isEmpty() && !meta.getName().equals(path.name())) {
            throw new ApiException(Statuses.badRequest("the name of the object (" + meta.getName()
                    + ") does not match the name on the URL (" + path.name() + ")"));
        }
        String namespace = requireNamespace(kind, path, meta);
        SpecificRecord written = ObjectAccess.withMeta(body.object(), ObjectMeta.newBuilder(meta).setName(path.name())
                .setNamespace(kind.namespaced() ? namespace : null).build());
        String givenRv = meta.getResourceVersion() == null ? "" : meta.getResourceVersion();
        for (int attempt = 1; ; attempt++) {
            // PUT of a missing Lease creates it, as kube-apiserver's Lease strategy allows (AllowCreateOnUpdate)
            boolean mayCreate = kind == Kinds.LEASE && !status && givenRv.isEmpty();
            SpecificRecord current = mayCreate ? backend.view().get(kind.kind(), path.storedNamespace(), path.name())
                    .map(c -> (SpecificRecord) c.getObject()).orElse(null) : ReadHandler.current(backend.view(), path);
            SpecificRecord object = Ownership.recordUpdate(request, kind, current, written, status ? "status" : "",
                    backend.clock().instant());
            if (givenRv.isEmpty() && current != null) {
                // Field ownership was computed against this version: write exactly on it (retried on a conflict).
                object = ObjectAccess.withMeta(object, ObjectMeta.newBuilder(ObjectAccess.meta(object))
                        .setResourceVersion(ObjectAccess.meta(current).getResourceVersion()).build());
            }
            try {
                Requests.Result r = submitter.forRequest(request)
                        .put(status ? Verb.UPDATE_STATUS : Verb.UPDATE, kind, namespace, path.name(), object);
                int code = r.outcome().getChanged() && r.object().getType() == ChangeType.CREATED ? 201 : 200;
                return ApiResponse.json(code, Json.encodeObject(kind, (SpecificRecord) r.object().getObject()))
                        .withWarnings(body.warnings());
            } catch (ApiException e) {
                boolean conflict = e.status().code() == 409 && "Conflict".equals(e.status().reason());
                if (!conflict || !givenRv.isEmpty() || attempt >= UPDATE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** POST pods/{name}/binding with a v1 Binding: the scheduler's assignment of a pod to a node. */
    ApiResponse bind(ApiRequest request, ResourcePath path) {
        if (path.kind() != Kinds.POD) {
            throw new ApiException(Statuses.noSuchResource());
        }
        JsonNode binding = PatchHandler.parseJson(request.body());
        if (!binding.isObject()) {
            throw new ApiException(Statuses.badRequest("a Binding must be a JSON object"));
        }
        String name = binding.path("metadata").path("name").asText("");
        if (!name.isEmpty() && !name.equals(path.name())) {
            throw new ApiException(Statuses.badRequest("the name of the object (" + name
                    + ") does not match the name on the URL (" + path.name() + ")"));
        }
        String targetKind = binding.path("target").path("kind").asText("");
        if (!targetKind.isEmpty() && !targetKind.equals("Node")) {
            throw new ApiException(Statuses.invalid(Kinds.POD, path.name(), List.of(new Cause("FieldValueNotSupported",
                    "target.kind: Unsupported value: \"" + targetKind + "\": supported values: \"Node\"",
                    "target.kind"))));
        }
        String uid = binding.path("metadata").path("uid").asText("");
        submitter.forRequest(request).bind(Kinds.POD, path.namespace(), path.name(), uid.isEmpty() ? null : uid,
                binding.path("target").path("name").asText(""));
        return ApiResponse.status(Statuses.success(201));
    }

    /** The URL's namespace; a different one in the body is refused (400) as Kubernetes does. */
    private static String requireNamespace(KindInfo kind, ResourcePath path, ObjectMeta meta) {
        if (!kind.namespaced()) {
            return "";
        }
        if (path.namespace() == null) {
            throw new ApiException(Statuses.methodNotAllowed());
        }
        if (meta.getNamespace() != null && !meta.getNamespace().isEmpty() && !meta.getNamespace().equals(path.namespace())) {
            throw new ApiException(Statuses.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request"));
        }
        return path.namespace();
    }

    /** Objects are created only in a namespace that exists and is not terminating. */
    void requireLiveNamespace(KindInfo kind, String namespace, String name) {
        Optional<ObjectChanged> ns = backend.view().get(Keys.of(Kinds.NAMESPACE.kind(), "", namespace));
        if (ns.isEmpty()) {
            throw new ApiException(Statuses.notFound(Kinds.NAMESPACE, namespace));
        }
        Namespace n = (Namespace) ns.get().getObject();
        boolean terminating = (n.getMetadata() != null && n.getMetadata().getDeletionTimestamp() != null)
                || (n.getStatus() != null && "Terminating".equals(n.getStatus().getPhase()));
        if (terminating) {
            throw new ApiException(Statuses.forbidden(kind, name, "unable to create new content in namespace "
                    + namespace + " because it is being terminated"));
        }
    }

    private String suffix() {
        return NameSuffixes.random(random, 5);
    }
}
