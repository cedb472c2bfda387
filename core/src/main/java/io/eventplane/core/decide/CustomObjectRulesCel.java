package io.eventplane.core.decide;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.log.StatusCause;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import java.util.List;

/** x-kubernetes-validations: CEL rules of a custom kind's schema (not evaluated yet). */
final class CustomObjectRulesCel {
    private CustomObjectRulesCel() {
    }

    /** The rules without oldSelf, over {@code body}. */
    static List<StatusCause> validate(ObjectNode body, ObjectNode old, JSONSchemaProps schema) {
        return List.of();
    }

    /** The transition rules (those using oldSelf), over the updated and the stored body. */
    static List<StatusCause> transitions(ObjectNode body, ObjectNode old, JSONSchemaProps schema) {
        return List.of();
    }
}
