package io.eventplane.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.log.Command;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.model.Pod;
import io.eventplane.model.Lease;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The writer holds node identities to their own pods, Node and Lease, whoever sent the command to Kafka. */
class NodeRestrictionTest {
    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    private final ObjectDecider decider = new ObjectDecider(RulesRegistry.standard());
    private long position = 100;

    private static Command command(String actor, List<String> groups, Verb verb, String kind, String namespace,
                                   String name, SpecificRecord object) {
        return Command.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor(actor).setGroups(groups).setRequestId("r-" + verb + name)
                        .setTime(T0).build())
                .setVerb(verb).setKind(kind).setNamespace(namespace).setName(name)
                .setPreconditions(new Preconditions()).setObject(object).build();
    }

    private static Command byNode1(Verb verb, String kind, String namespace, String name, SpecificRecord object) {
        return command("system:node:n1", List.of("system:nodes", "system:authenticated"), verb, kind, namespace, name,
                object);
    }

    private ObjectChanged created(SpecificRecord object, String kind, String namespace, String name) {
        Decision d = decider.decide(command("admin", List.of("system:masters"), Verb.CREATE, kind, namespace, name,
                object), null, ++position);
        assertTrue(d.outcome().getAccepted(), d.outcome().getMessage());
        return d.change().orElseThrow();
    }

    private String refusal(Command c, ObjectChanged current) {
        Decision d = decider.decide(c, current, ++position);
        assertEquals(false, d.outcome().getAccepted(), "refused");
        assertEquals(403, d.outcome().getCode());
        assertEquals("Forbidden", d.outcome().getReason());
        return d.outcome().getMessage();
    }

    private boolean accepted(Command c, ObjectChanged current) {
        Decision d = decider.decide(c, current, ++position);
        return d.outcome().getAccepted();
    }

    @Test
    @DisplayName("AUTHZ-NODE: through Kafka, system:node:n1 writes its own pods' status and deletion, never another node's")
    void podsOfOtherNodes() {
        Pod theirs = KubeObjects.pod("theirs").onNode("n2").build();
        Pod mine = KubeObjects.pod("mine").onNode("n1").build();
        ObjectChanged theirsNow = created(theirs, "Pod", "default", "theirs");
        ObjectChanged mineNow = created(mine, "Pod", "default", "mine");
        Pod theirsStored = (Pod) theirsNow.getObject();
        Pod mineStored = (Pod) mineNow.getObject();

        assertEquals("pods \"theirs\" is forbidden: node \"n1\" can only update pod status for pods with spec.nodeName "
                + "set to itself", refusal(byNode1(Verb.UPDATE_STATUS, "Pod", "default", "theirs", theirsStored),
                theirsNow));
        assertEquals("pods \"theirs\" is forbidden: node \"n1\" can only delete pods with spec.nodeName set to itself",
                refusal(byNode1(Verb.DELETE, "Pod", "default", "theirs", null), theirsNow));
        assertEquals("pods \"theirs\" is forbidden: node \"n1\" can only update pods with spec.nodeName set to itself",
                refusal(byNode1(Verb.UPDATE, "Pod", "default", "theirs", theirsStored), theirsNow));
        assertEquals("pods \"plain\" is forbidden: pod does not have \"kubernetes.io/config.mirror\" annotation, node "
                + "\"n1\" can only create mirror pods",
                refusal(byNode1(Verb.CREATE, "Pod", "default", "plain", KubeObjects.pod("plain").onNode("n1").build()),
                        null));
        assertTrue(accepted(byNode1(Verb.UPDATE_STATUS, "Pod", "default", "mine", mineStored), mineNow));
        assertTrue(accepted(byNode1(Verb.DELETE, "Pod", "default", "mine", null), mineNow));
        Pod mirror = KubeObjects.pod("static-n1").onNode("n1").annotations("kubernetes.io/config.mirror", "h").build();
        assertTrue(accepted(byNode1(Verb.CREATE, "Pod", "default", "static-n1", mirror), null));

        // the name alone is no node: without system:nodes it is an ordinary actor, which the writer does not restrict
        assertTrue(accepted(command("system:node:n1", List.of(), Verb.DELETE, "Pod", "default", "theirs", null),
                theirsNow));
    }

    @Test
    @DisplayName("AUTHZ-NODE: through Kafka, a node writes only its own Node and its own Lease in kube-node-lease")
    void nodeAndLease() {
        assertEquals("nodes \"n2\" is forbidden: node \"n1\" is not allowed to modify node \"n2\"",
                refusal(byNode1(Verb.CREATE, "Node", "", "n2", KubeObjects.node("n2").build()), null));
        assertTrue(accepted(byNode1(Verb.CREATE, "Node", "", "n1", KubeObjects.node("n1").build()), null));
        Lease other = Lease.newBuilder().setMetadata(io.eventplane.model.ObjectMeta.newBuilder().setName("n2")
                .setNamespace("kube-node-lease").build()).build();
        assertEquals("leases.coordination.k8s.io \"n2\" is forbidden: can only access node lease with the same name as "
                + "the requesting node", refusal(byNode1(Verb.CREATE, "Lease", "kube-node-lease", "n2", other), null));
        Lease own = Lease.newBuilder(other).setMetadata(io.eventplane.model.ObjectMeta.newBuilder().setName("n1")
                .setNamespace("kube-node-lease").build()).build();
        assertTrue(accepted(byNode1(Verb.CREATE, "Lease", "kube-node-lease", "n1", own), null));
    }
}
