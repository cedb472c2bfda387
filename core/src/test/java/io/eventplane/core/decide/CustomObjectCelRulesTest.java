package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** x-kubernetes-validations CEL rules on a custom kind (issue 26 item 2): compiled with the CRD, run by the writer. */
class CustomObjectCelRulesTest {
    private static final Decisions DECISIONS = new Decisions();

    /** Rules at the root, on an object field, on a scalar field, on array items and on map values. */
    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: gadgets.cel.example.com}
            spec:
              group: cel.example.com
              scope: Namespaced
              names: {plural: gadgets, singular: gadget, kind: Gadget}
              versions:
              - name: v1
                served: true
                storage: true
                subresources: {status: {}}
                schema:
                  openAPIV3Schema:
                    type: object
                    x-kubernetes-validations:
                    - rule: "self.metadata.name.startsWith('g-')"
                      message: "name must start with g-"
                    properties:
                      spec:
                        type: object
                        x-kubernetes-validations:
                        - rule: "self.minReplicas <= self.maxReplicas"
                          message: "minReplicas must not exceed maxReplicas"
                        - rule: "!has(self.mode) || self.mode != 'broken'"
                          messageExpression: "'mode ' + self.mode + ' is not allowed'"
                          fieldPath: ".mode"
                          reason: FieldValueForbidden
                        - rule: "self.minReplicas >= oldSelf.minReplicas"
                          message: "minReplicas may not go down"
                        - rule: "self.size() > 0"
                        properties:
                          minReplicas: {type: integer}
                          maxReplicas: {type: integer}
                          mode: {type: string}
                          ratio:
                            type: number
                            x-kubernetes-validations:
                            - rule: "self < 1.0"
                          image:
                            type: string
                            x-kubernetes-validations:
                            - rule: "self == oldSelf"
                              message: "image is immutable"
                          ports:
                            type: array
                            items:
                              type: object
                              x-kubernetes-validations:
                              - rule: "self.port > 1024 && self.name.matches('^[a-z]+$')"
                              properties:
                                name: {type: string}
                                port: {type: integer}
                          labels:
                            type: object
                            additionalProperties:
                              type: string
                              x-kubernetes-validations:
                              - rule: "self.size() <= 5"
                                message: "label values are short"
                          owner:
                            type: string
                            x-kubernetes-validations:
                            - rule: "oldSelf.hasValue() || self == 'team-a'"
                              optionalOldSelf: true
                              message: "a new owner must be team-a"
                      status:
                        type: object
                        properties:
                          ready: {type: integer}
                        x-kubernetes-validations:
                        - rule: "self.ready >= 0"
            """;

    @BeforeAll
    static void defineKind() {
        CustomResourceDefinition crd = DECISIONS.created(Decisions.parse(CustomResourceDefinition.class, CRD));
        CustomKinds.define(crd);
    }

    private static CustomObject gadget(String name, String spec) {
        String yaml = "apiVersion: cel.example.com/v1\nkind: Gadget\nmetadata: {name: " + name + ", namespace: default}\n"
                + "spec: " + spec + "\n";
        return (CustomObject) KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8),
                CustomKinds.byApiVersion("cel.example.com/v1", "Gadget").orElseThrow().info(), FieldValidation.STRICT,
                null);
    }

    @Test
    @DisplayName("CRD-9 a valid custom object passes every rule (object, field, items, map values, optionalOldSelf)")
    void validObject() {
        DECISIONS.created(gadget("g-ok", "{minReplicas: 1, maxReplicas: 3, ratio: 0.5, owner: team-a, "
                + "ports: [{name: http, port: 8080}], labels: {app: web}}"));
    }

    @Test
    @DisplayName("CRD-9 failing rules are 422 causes in Kubernetes' words: path, the schema type as the value, the "
            + "message, messageExpression, fieldPath and reason; the default message is 'failed rule: <rule>'")
    void failingRules() {
        List<String> causes = rejected(DECISIONS.create(gadget("bad", "{minReplicas: 5, maxReplicas: 3, mode: broken, "
                + "ratio: 2, ports: [{name: HTTP, port: 80}], labels: {app: toolongvalue}, owner: team-b}")));
        assertEquals(List.of(
                "<nil>: Invalid value: \"object\": name must start with g-",
                "spec: Invalid value: \"object\": minReplicas must not exceed maxReplicas",
                "spec.mode: Forbidden: mode broken is not allowed",
                "spec.ratio: Invalid value: \"number\": failed rule: self < 1.0",
                "spec.ports[0]: Invalid value: \"object\": failed rule: self.port > 1024 && "
                        + "self.name.matches('^[a-z]+$')",
                "spec.labels[app]: Invalid value: \"string\": label values are short",
                "spec.owner: Invalid value: \"string\": a new owner must be team-a"), causes);
        assertEquals("Gadget.cel.example.com \"bad\" is invalid: [<nil>: Invalid value: \"object\": name must start with g-, "
                        + "spec: Invalid value: \"object\": minReplicas must not exceed maxReplicas]",
                DECISIONS.create(gadget("bad", "{minReplicas: 5, maxReplicas: 3}")).outcome().getMessage());
    }

    @Test
    @DisplayName("CRD-10 transition rules (oldSelf) run on update only, where the old object has the value; "
            + "optionalOldSelf rules also run on create with oldSelf none")
    void transitionRules() {
        ObjectChanged created = DECISIONS.createdChange(gadget("g-moves", "{minReplicas: 2, maxReplicas: 4, "
                + "image: a, owner: team-a}"));
        List<String> causes = rejected(DECISIONS.update(created, withVersion(gadget("g-moves",
                "{minReplicas: 1, maxReplicas: 4, image: b, owner: team-b}"), created)));
        assertEquals(List.of("spec: Invalid value: \"object\": minReplicas may not go down",
                "spec.image: Invalid value: \"string\": image is immutable"), causes);
        CustomObject added = DECISIONS.updated(created, withVersion(gadget("g-moves",
                "{minReplicas: 3, maxReplicas: 4, image: a, owner: team-b}"), created));
        assertTrue(added.getContent().contains("team-b"), "an existing owner may change: " + added);
    }

    @Test
    @DisplayName("CRD-11 a definition whose rule does not compile is refused 422 with 'compilation failed', as are a "
            + "messageExpression that does not compile, an unknown reason and a fieldPath naming no field")
    void uncompilableRules() {
        String bad = CRD.replace("gadgets.cel.example.com", "widgets.cel.example.com")
                .replace("plural: gadgets, singular: gadget, kind: Gadget", "plural: widgets, singular: widget, kind: Widget")
                .replace("\"self.minReplicas <= self.maxReplicas\"", "\"self.minReplicas <=\"")
                .replace("\"'mode ' + self.mode + ' is not allowed'\"", "\"'mode ' + \"")
                .replace("reason: FieldValueForbidden", "reason: FieldValueWrong")
                .replace("fieldPath: \".mode\"", "fieldPath: \".nope\"")
                .replace("\"self < 1.0\"", "\"self + 'x'\"");
        List<String> causes = rejected(DECISIONS.create(Decisions.parse(CustomResourceDefinition.class, bad)));
        String all = String.join("\n", causes);
        String spec = "spec.versions[0].schema.openAPIV3Schema.properties[spec]";
        assertTrue(all.contains(spec + ".x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule"
                + "{Rule:\"self.minReplicas <=\", Message:\"minReplicas must not exceed maxReplicas\", "
                + "MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", "
                + "OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:"), all);
        assertTrue(all.contains(spec + ".x-kubernetes-validations[1].messageExpression: Invalid value: "
                + "apiextensions.ValidationRule{"), all);
        assertTrue(all.contains("messageExpression compilation failed: ERROR"), all);
        assertTrue(all.contains(spec + ".x-kubernetes-validations[1].reason: Unsupported value: \"FieldValueWrong\""), all);
        assertTrue(all.contains(spec + ".x-kubernetes-validations[1].fieldPath: Invalid value: \".nope\": does not "
                + "refer to a valid field"), all);
        assertTrue(all.contains(spec + ".properties[ratio].x-kubernetes-validations[0].rule: Invalid value: "), all);
        assertTrue(all.contains("found no matching overload for '_+_' applied to '(double, string)'"), all);
    }

    private static CustomObject withVersion(CustomObject object, ObjectChanged current) {
        CustomObject stored = (CustomObject) current.getObject();
        return CustomObject.newBuilder(object).setMetadata(io.eventplane.model.ObjectMeta.newBuilder(object.getMetadata())
                .setResourceVersion(stored.getMetadata().getResourceVersion()).setUid(stored.getMetadata().getUid())
                .build()).build();
    }
}
