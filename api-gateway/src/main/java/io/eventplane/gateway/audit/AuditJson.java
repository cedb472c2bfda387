package io.eventplane.gateway.audit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.log.AuditEntry;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.wire.Json;
import io.eventplane.log.ObjectChanged;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Audit entries as JSON: our own compact form ({@code eventplane.io/v1 AuditEntryList}), and Kubernetes'
 * {@code audit.k8s.io/v1 EventList} at the levels a {@link AuditPolicy} gives, so existing audit tooling reads it.
 */
public final class AuditJson {
    private AuditJson() {
    }

    public static ObjectNode entries(List<AuditEntry> entries) {
        ObjectNode list = Json.object();
        list.put("kind", "AuditEntryList");
        list.put("apiVersion", "eventplane.io/v1");
        ArrayNode items = list.putArray("items");
        for (AuditEntry e : entries) {
            ObjectNode o = items.addObject();
            o.put("time", e.time().toString());
            o.put("actor", e.actor());
            io.eventplane.log.Envelope who = e.envelope();
            if (who != null && !who.getGroups().isEmpty()) {
                who.getGroups().forEach(o.putArray("groups")::add);
            }
            if (who != null && who.getRealUser() != null) {
                o.put("impersonatedBy", who.getRealUser());
            }
            o.put("verb", e.verb());
            o.put("kind", e.kind());
            o.put("namespace", e.namespace());
            o.put("name", e.name());
            o.put("outcome", e.outcome());
            o.put("code", e.code());
            if (!e.accepted()) {
                o.put("reason", e.reason());
                o.put("message", e.message());
            } else {
                o.put("change", e.changeType());
                o.put("resourceVersion", Long.toString(e.resourceVersion()));
            }
            o.put("requestId", e.requestId());
            if (e.causationId() != null) {
                o.put("causationId", e.causationId());
            }
            if (e.request() != null && e.request().getObject() != null) {
                o.set("request", Json.encodeObject((SpecificRecord) e.request().getObject()));
            }
            if (e.before() != null) {
                o.set("before", object(e.before()));
            }
            if (e.after() != null) {
                o.set("after", object(e.after()));
            }
        }
        return list;
    }

    private static void groups(ObjectNode user, List<String> groups) {
        var arr = user.putArray("groups");
        (groups.isEmpty() ? List.of("system:authenticated") : groups).forEach(arr::add);
    }

    /** audit.k8s.io/v1 EventList: one Event (stage ResponseComplete) per entry the policy does not level at None. */
    public static ObjectNode kubernetes(List<AuditEntry> entries, AuditPolicy policy) {
        ObjectNode list = Json.object();
        list.put("kind", "EventList");
        list.put("apiVersion", "audit.k8s.io/v1");
        list.putObject("metadata");
        ArrayNode items = list.putArray("items");
        for (AuditEntry e : entries) {
            KindInfo kind = Kinds.byKind(e.kind()).orElse(null);
            if (kind == null) {
                continue;
            }
            String[] verb = kubernetesVerb(e.verb());
            AuditPolicy.Request request = new AuditPolicy.Request(e.actor(), verb[0], kind.group(), kind.plural(),
                    verb[1], e.namespace(), e.name());
            AuditLevel level = policy.levelOf(request);
            if (level == AuditLevel.None) {
                continue;
            }
            ObjectNode ev = items.addObject();
            ev.put("kind", "Event");
            ev.put("apiVersion", "audit.k8s.io/v1");
            ev.put("level", level.name());
            ev.put("auditID", e.requestId());
            ev.put("stage", "ResponseComplete");
            ev.put("requestURI", requestUri(kind, e, verb));
            ev.put("verb", verb[0]);
            // As kube-apiserver records it: user is who authenticated, impersonatedUser whom they acted as.
            io.eventplane.log.Envelope who = e.envelope();
            boolean impersonated = who != null && who.getRealUser() != null;
            ObjectNode user = ev.putObject("user");
            user.put("username", impersonated ? who.getRealUser() : e.actor());
            groups(user, impersonated ? who.getRealGroups() : who == null ? List.of() : who.getGroups());
            if (impersonated) {
                ObjectNode as = ev.putObject("impersonatedUser");
                as.put("username", e.actor());
                groups(as, who.getGroups());
            }
            ev.putArray("sourceIPs");
            if (who != null && who.getUserAgent() != null) {
                ev.put("userAgent", who.getUserAgent());
            }
            ObjectNode ref = ev.putObject("objectRef");
            ref.put("resource", kind.plural());
            if (!e.namespace().isEmpty()) {
                ref.put("namespace", e.namespace());
            }
            ref.put("name", e.name());
            if (e.after() != null) {
                ref.put("uid", e.after().getUid());
                ref.put("resourceVersion", Long.toString(e.resourceVersion()));
            }
            ref.put("apiGroup", kind.group());
            ref.put("apiVersion", kind.version());
            if (verb[1] != null) {
                ref.put("subresource", verb[1]);
            }
            ObjectNode status = ev.putObject("responseStatus");
            status.putObject("metadata");
            if (!e.accepted()) {
                status.put("status", "Failure");
                status.put("message", e.message());
                status.put("reason", e.reason());
            }
            status.put("code", e.code());
            if (level.compareTo(AuditLevel.Request) >= 0 && e.request() != null && e.request().getObject() != null) {
                ev.set("requestObject", Json.encodeObject(kind, (SpecificRecord) e.request().getObject()));
            }
            if (level == AuditLevel.RequestResponse && e.after() != null) {
                ev.set("responseObject", Json.encodeObject(kind, (SpecificRecord) e.after().getObject()));
            }
            ev.put("requestReceivedTimestamp", micro(e.time()));
            ev.put("stageTimestamp", micro(e.time()));
            ObjectNode annotations = ev.putObject("annotations");
            annotations.put("eventplane.io/outcome", e.outcome());
            if (e.causationId() != null) {
                annotations.put("eventplane.io/causation-id", e.causationId());
            }
        }
        return list;
    }

    /** Our verb as Kubernetes' verb and subresource. */
    static String[] kubernetesVerb(String verb) {
        return switch (verb) {
            case "create" -> new String[] {"create", null};
            case "update-status" -> new String[] {"update", "status"};
            case "bind" -> new String[] {"create", "binding"};
            case "delete" -> new String[] {"delete", null};
            default -> new String[] {"update", null};
        };
    }

    private static String requestUri(KindInfo kind, AuditEntry e, String[] verb) {
        String base = (kind.group().isEmpty() ? "/api/" : "/apis/" + kind.group() + "/") + kind.version()
                + (e.namespace().isEmpty() ? "" : "/namespaces/" + e.namespace()) + "/" + kind.plural();
        if (verb[0].equals("create") && verb[1] == null) {
            return base;
        }
        return base + "/" + e.name() + (verb[1] == null ? "" : "/" + verb[1]);
    }

    private static String micro(java.time.Instant t) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(t);
    }

    private static ObjectNode object(ObjectChanged c) {
        return Json.encodeObject(Kinds.of((SpecificRecord) c.getObject()), (SpecificRecord) c.getObject());
    }
}
