package io.eventplane.gateway.api;

import io.eventplane.core.decide.ObjectDecider;
import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.Requests;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.meta.NameSuffixes;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.client.admission.AdmissionRequest;
import io.eventplane.gateway.admission.Admission;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Verb;
import io.eventplane.model.ObjectMeta;
import java.security.SecureRandom;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * POST (create), PUT (update, status, namespaces/finalize) and pods/binding: decode, admit, build a command, submit,
 * answer.
 */
final class WriteHandler {
    /** The alphabet of generateName suffixes: no vowels, no look-alikes (as Kubernetes). */
    private static final int GENERATE_ATTEMPTS = 3;
    private static final int UPDATE_ATTEMPTS = 5;
    private final Backend backend;
    private final Submitter submitter;
    private final Admission admission;
    private final SecureRandom random = new SecureRandom();

    WriteHandler(Backend backend, Submitter submitter, Admission admission) {
        this.backend = backend;
        this.submitter = submitter;
        this.admission = admission;
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
        boolean generated = given == null || given.isEmpty();
        SpecificRecord named = ObjectAccess.withMeta(body.object(), ObjectMeta.newBuilder(meta)
                .setName(generated ? generate + suffix() : given).setNamespace(kind.namespaced() ? namespace : null).build());
        SpecificRecord admitted = admitCreate(request, kind, namespace, generated ? generate : given, named);
        for (int attempt = 1; ; attempt++) {
            String name = attempt == 1 ? ObjectAccess.meta(named).getName() : generate + suffix();
            // The client owns the fields it sent; defaults and admission's changes are written, not owned.
            SpecificRecord sent = Ownership.recordUpdate(request, kind, null, renamed(named, name), "",
                    backend.clock().instant());
            SpecificRecord object = ObjectAccess.withMeta(admitted, ObjectMeta.newBuilder(ObjectAccess.meta(admitted))
                    .setName(name).setManagedFields(ObjectAccess.meta(sent).getManagedFields()).build());
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
            boolean ephemeral = ObjectDecider.EPHEMERAL_CONTAINERS.equals(path.subresource());
            if (!status && !ephemeral && current != null) {
                object = admitUpdate(request, kind, namespace, path.name(), current, object);
            }
            try {
                Requests.Result r = ephemeral
                        ? submitter.forRequest(request).ephemeralContainers(kind, namespace, path.name(), object)
                        : submitter.forRequest(request)
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

    /**
     * PUT namespaces/{name}/finalize: a Namespace's spec.finalizers, and nothing else (the namespace controller's last
     * step, or an operator's way out of a namespace stuck terminating). The last one gone removes a deleted namespace.
     */
    ApiResponse finalize(ApiRequest request, ResourcePath path) {
        if (path.kind() != Kinds.NAMESPACE) {
            throw new ApiException(Statuses.noSuchResource());
        }
        BodyDecoder.Body<SpecificRecord> body = BodyDecoder.object(request, path.kind());
        Requests.Result r = submitter.forRequest(request).finalize(path.kind(), path.name(), atVersion(body, path));
        return ApiResponse.json(200, Json.encodeObject(path.kind(), (SpecificRecord) r.object().getObject()))
                .withWarnings(body.warnings());
    }

    /**
     * PUT certificatesigningrequests/{name}/approval: the request's conditions (Approved, Denied), nothing else, as
     * {@code kubectl certificate approve|deny} send them. Written on the version the client read, or the current one.
     */
    ApiResponse approval(ApiRequest request, ResourcePath path) {
        BodyDecoder.Body<SpecificRecord> body = BodyDecoder.object(request, path.kind());
        Requests.Result r = submitter.forRequest(request).approval(path.kind(), path.name(), atVersion(body, path));
        return ApiResponse.json(200, Json.encodeObject(path.kind(), (SpecificRecord) r.object().getObject()))
                .withWarnings(body.warnings());
    }

    /**
     * A subresource body (finalize, approval) named as the URL names it, on the resourceVersion the client read or,
     * when it gives none, the current one.
     */
    private SpecificRecord atVersion(BodyDecoder.Body<SpecificRecord> body, ResourcePath path) {
        ObjectMeta meta = ObjectAccess.meta(body.object());
        if (meta.getName() != null && !meta.getName().isEmpty() && !meta.getName().equals(path.name())) {
            throw new ApiException(Statuses.badRequest("the name of the object (" + meta.getName()
                    + ") does not match the name on the URL (" + path.name() + ")"));
        }
        SpecificRecord current = ReadHandler.current(backend.view(), path);
        String rv = meta.getResourceVersion() == null || meta.getResourceVersion().isEmpty()
                ? ObjectAccess.meta(current).getResourceVersion() : meta.getResourceVersion();
        return ObjectAccess.withMeta(body.object(), ObjectMeta.newBuilder(meta).setName(path.name())
                .setResourceVersion(rv).build());
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

    /**
     * The admission chain for a new object (namespace lifecycle, defaults, limits, priority, quota): the object to
     * write, or a refusal before anything is written. The writer's own checks run on the admitted object first, as
     * Kubernetes validates before its validating plugins; a name already taken is left to the writer.
     *
     * @param shownName the name messages show: the object's name, or its generateName
     */
    SpecificRecord admitCreate(ApiRequest request, KindInfo kind, String namespace, String shownName,
                               SpecificRecord object) {
        AdmissionRequest a = new AdmissionRequest(AdmissionRequest.Operation.CREATE, kind, namespace, shownName, null,
                DryRun.requested(request));
        return admission.create(a, object, admitted -> {
            try {
                submitter.forRequest(request).check(Verb.CREATE, kind, namespace, ObjectAccess.meta(admitted).getName(),
                        admitted);
            } catch (ApiException e) {
                // Kubernetes finds a taken name in storage, after admission: the writer refuses it and audits that
                if (!"AlreadyExists".equals(e.status().reason())) {
                    throw e;
                }
            }
        });
    }

    /** The admission chain for an update of {@code current} (PriorityClass defaults, claim limits). */
    SpecificRecord admitUpdate(ApiRequest request, KindInfo kind, String namespace, String name,
                               SpecificRecord current, SpecificRecord object) {
        return admission.update(new AdmissionRequest(AdmissionRequest.Operation.UPDATE, kind, namespace, name, current,
                DryRun.requested(request)), object);
    }

    private static SpecificRecord renamed(SpecificRecord object, String name) {
        return ObjectAccess.withMeta(object, ObjectMeta.newBuilder(ObjectAccess.meta(object)).setName(name).build());
    }

    private String suffix() {
        return NameSuffixes.random(random, 5);
    }
}
