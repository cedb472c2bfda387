package io.eventplane.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.CustomKinds.GroupNames;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionCondition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionNames;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.DisplayName;

/**
 * Custom kinds are told apart by group (issue 26, CRD-30..36): the naming controller's conflicts within a group, and
 * one Kind defined by two groups (or equal to a compiled kind) kept apart on the log.
 */
class CustomResourceDefinitionNamingTest {
    private final Decisions decisions = new Decisions();
    /** A fresh group per test: CustomKinds is process-wide. */
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    private static CustomResourceDefinitionNames names(String plural, String singular, List<String> shortNames,
                                                       String kind) {
        return CustomResourceDefinitionNames.newBuilder().setPlural(plural).setSingular(singular)
                .setShortNames(shortNames).setKind(kind).setListKind(kind + "List").build();
    }

    private static GroupNames inUse(Set<String> resources, Set<String> kinds) {
        return new GroupNames(resources, kinds);
    }

    @Test
    @DisplayName("CRD-30 names nobody else in the group uses are accepted: NoConflicts, 'no conflicts found'")
    void freeNames() {
        CustomResourceDefinitionNaming n = CustomResourceDefinitionNaming.decide(
                names("widgets", "widget", List.of("wd"), "Widget"), null, inUse(Set.of("gadgets"), Set.of("Gadget")));
        assertTrue(n.namesAccepted());
        assertEquals("no conflicts found", n.message());
        assertEquals(names("widgets", "widget", List.of("wd"), "Widget"), n.accepted());
    }

    @Test
    @DisplayName("CRD-31 a plural, singular, short name, kind or list kind another definition of the group holds is "
            + "not accepted, in upstream's words; the names held before stay held")
    void conflicts() {
        CustomResourceDefinitionNames wanted = names("widgets", "widget", List.of("wd", "w"), "Widget");
        assertConflict(wanted, inUse(Set.of("widgets"), Set.of()), "PluralConflict", "\"widgets\" is already in use");
        assertConflict(wanted, inUse(Set.of("widget"), Set.of()), "SingularConflict", "\"widget\" is already in use");
        assertConflict(wanted, inUse(Set.of("wd"), Set.of()), "ShortNamesConflict", "\"wd\" is already in use");
        assertConflict(wanted, inUse(Set.of("wd", "w"), Set.of()), "ShortNamesConflict",
                "[\"wd\" is already in use, \"w\" is already in use]");
        assertConflict(wanted, inUse(Set.of(), Set.of("Widget")), "KindConflict", "\"Widget\" is already in use");
        assertConflict(wanted, inUse(Set.of(), Set.of("WidgetList")), "ListKindConflict",
                "\"WidgetList\" is already in use");
        CustomResourceDefinitionNames held = names("widgets", "widget", List.of(), "Widget");
        CustomResourceDefinitionNaming n = CustomResourceDefinitionNaming.decide(wanted, held,
                inUse(Set.of("widgets", "widget", "wd"), Set.of("Widget", "WidgetList")));
        assertEquals("ShortNamesConflict", n.reason(), "names it holds already are its own");
        assertEquals(List.of(), n.accepted().getShortNames(), "the conflicting short names are not taken");
    }

    private static void assertConflict(CustomResourceDefinitionNames wanted, GroupNames used, String reason,
                                       String message) {
        CustomResourceDefinitionNaming n = CustomResourceDefinitionNaming.decide(wanted, null, used);
        assertFalse(n.namesAccepted());
        assertEquals(reason, n.reason());
        assertEquals(message, n.message());
    }

    @Test
    @DisplayName("CRD-32 the writer plays the naming controller: a second definition of the group asking for a kind "
            + "the first holds gets NamesAccepted False (ListKindConflict, the last found) and is not Established (NotAccepted); the "
            + "same Kind in another group is Established")
    void sameGroupConflictNotEstablished() {
        String group = "n" + run + ".example.com";
        CustomResourceDefinition first = decisions.created(crd("widgets", group, "Widget"));
        CustomKinds.define(first);
        CustomResourceDefinition twin = decisions.created(crd("gizmos", group, "Widget"));
        assertEquals(List.of("NamesAccepted False ListKindConflict \"WidgetList\" is already in use",
                        "Established False NotAccepted not all names are accepted"),
                conditions(twin));
        assertFalse(CustomKinds.established(twin));
        CustomResourceDefinition elsewhere = decisions.created(crd("widgets", "m" + run + ".example.com", "Widget"));
        assertTrue(CustomKinds.established(elsewhere));
        assertEquals(List.of("NamesAccepted True NoConflicts no conflicts found",
                "Established True InitialNamesAccepted the initial names have been accepted"), conditions(elsewhere));
    }

    @Test
    @DisplayName("CRD-33 a definition may not take a compiled kind's names in its group (Ingress in "
            + "networking.k8s.io); in its own group a Kind equal to a compiled one (Deployment) is accepted")
    void compiledKindsHoldTheirGroupsNames() {
        CustomResourceDefinition ingress = decisions.created(crd("ingresses", "networking.k8s.io", "Ingress"));
        assertFalse(CustomKinds.established(ingress));
        assertEquals("NamesAccepted False ListKindConflict \"IngressList\" is already in use",
                conditions(ingress).get(0), "the last conflict found is reported, as upstream does");
        CustomResourceDefinition deployment = decisions.created(crd("deployments", "d" + run + ".example.com",
                "Deployment"));
        assertTrue(CustomKinds.established(deployment));
    }

    @Test
    @DisplayName("CRD-34 one Kind in two groups is two kinds: Kind.group on the log, the Kind alone in objects, "
            + "owner references and discovery; references resolve by group")
    void oneKindTwoGroups() {
        String a = "a" + run + ".example.com";
        String b = "b" + run + ".example.com";
        CustomKinds.define(decisions.created(crd("clusters", a, "Cluster")));
        CustomKinds.define(decisions.created(crd("clusters", b, "Cluster")));
        KindInfo inA = Kinds.of(object(a, "Cluster", "c1"));
        KindInfo inB = Kinds.of(object(b, "Cluster", "c1"));
        assertEquals("Cluster." + a, inA.kind());
        assertEquals("Cluster." + b, inB.kind());
        assertEquals("Cluster", inA.objectKind());
        assertEquals(inA, Kinds.byKind("Cluster." + a).orElseThrow());
        assertEquals(inA, Kinds.byReference(a + "/v1", "Cluster").orElseThrow());
        assertEquals(Kinds.DEPLOYMENT, Kinds.byReference("apps/v1", "Deployment").orElseThrow());
        assertTrue(Kinds.byReference("nowhere.example.com/v1", "Deployment").isEmpty());
        assertEquals("Cluster", KubeJson.get().encodeObject(object(a, "Cluster", "c1")).path("kind").asText());
        assertEquals("Cluster", io.eventplane.core.meta.Owners.controllerRef(inA,
                ObjectMeta.newBuilder().setName("c1").setUid("u").build()).getKind());
        ObjectChanged created = decisions.createdChange(object(a, "Cluster", "c1"));
        assertEquals("Cluster." + a, created.getKind());
    }

    @Test
    @DisplayName("CRD-35 a command whose custom object says another group than the command's kind is refused")
    void commandAndObjectAgree() {
        String a = "x" + run + ".example.com";
        String b = "y" + run + ".example.com";
        CustomKinds.define(decisions.created(crd("clusters", a, "Cluster")));
        CustomKinds.define(decisions.created(crd("clusters", b, "Cluster")));
        var command = io.eventplane.log.Command.newBuilder(Decisions.command(io.eventplane.log.Verb.CREATE, object(a, "Cluster", "c1")))
                .setKind("Cluster." + b).build();
        Decision d = new ObjectDecider(RulesRegistry.standard()).decide(command, null, 1);
        assertFalse(d.outcome().getAccepted());
        assertEquals(400, d.outcome().getCode());
    }

    @Test
    @DisplayName("CRD-36 a definition deleted frees its names: another definition of the group may then take them")
    void deletedDefinitionFreesNames() {
        String group = "f" + run + ".example.com";
        CustomResourceDefinition first = decisions.created(crd("widgets", group, "Widget"));
        CustomKinds.define(first);
        assertFalse(CustomKinds.established(decisions.created(crd("gizmos", group, "Widget"))));
        CustomKinds.forget(first.getMetadata().getName(), Long.MAX_VALUE);
        assertTrue(CustomKinds.established(decisions.created(crd("gizmos", group, "Widget"))));
        assertNull(CustomKinds.byKind("Widget." + group).orElse(null), "the deleted definition serves nothing");
    }

    private static List<String> conditions(CustomResourceDefinition crd) {
        return crd.getStatus().getConditions().stream().map(CustomResourceDefinitionNamingTest::text).toList();
    }

    private static String text(CustomResourceDefinitionCondition c) {
        return c.getType() + " " + c.getStatus() + " " + c.getReason() + " " + c.getMessage();
    }

    static CustomResourceDefinition crd(String plural, String group, String kind) {
        return Decisions.parse(CustomResourceDefinition.class, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: %s.%s}
                spec:
                  group: %s
                  scope: Namespaced
                  names: {plural: %s, kind: %s}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                """.formatted(plural, group, group, plural, kind));
    }

    static CustomObject object(String group, String kind, String name) {
        return CustomObject.newBuilder().setApiVersion(group + "/v1").setKind(kind)
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setContent("{\"spec\":{}}").build();
    }
}
