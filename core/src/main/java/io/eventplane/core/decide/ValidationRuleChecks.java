package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import io.eventplane.model.apiextensions.ValidationRule;
import java.util.List;

/**
 * A CRD version's x-kubernetes-validations checked when the definition is written, as apiextensions-apiserver checks
 * them: every rule compiles (else {@code ...x-kubernetes-validations[i].rule: Invalid value:
 * apiextensions.ValidationRule{...}: compilation failed: ...}), its messageExpression compiles to a string, its
 * reason is one of the four, its fieldPath names a field below the rule's node.
 */
final class ValidationRuleChecks {
    private static final List<String> REASONS = List.of("FieldValueDuplicate", "FieldValueForbidden",
            "FieldValueInvalid", "FieldValueRequired");

    private ValidationRuleChecks() {
    }

    static void check(JSONSchemaProps root, String path, List<StatusCause> causes) {
        ValidationRules.check(root, path, true, (rulePath, node, compiled) -> {
            ValidationRule rule = compiled.rule();
            if (rule.getRule() == null || rule.getRule().isBlank()) {
                causes.add(Causes.required(rulePath + ".rule"));
            } else if (compiled.error() != null) {
                causes.add(Causes.invalidShown(rulePath + ".rule", shown(rule), compiled.error()));
            }
            if (compiled.messageError() != null) {
                causes.add(Causes.invalidShown(rulePath + ".messageExpression", shown(rule), compiled.messageError()));
            }
            if (rule.getReason() != null && !REASONS.contains(rule.getReason())) {
                causes.add(Causes.notSupported(rulePath + ".reason", rule.getReason(), REASONS));
            }
            if (rule.getFieldPath() != null && !rule.getFieldPath().isEmpty()) {
                String problem = RuleFieldPaths.problem(rule.getFieldPath(), node);
                if (problem != null) {
                    causes.add(Causes.invalid(rulePath + ".fieldPath", rule.getFieldPath(), problem));
                }
            }
            if (Boolean.TRUE.equals(rule.getOptionalOldSelf()) && compiled.error() == null && !compiled.usesOldSelf()) {
                causes.add(Causes.invalid(rulePath + ".optionalOldSelf", true,
                        "may not be set if oldSelf is not used in rule"));
            }
        });
    }

    /** The rule as Go's %#v prints apiextensions.ValidationRule. */
    private static String shown(ValidationRule r) {
        return "apiextensions.ValidationRule{Rule:" + quote(r.getRule()) + ", Message:" + quote(r.getMessage())
                + ", MessageExpression:" + quote(r.getMessageExpression()) + ", Reason:"
                + (r.getReason() == null ? "(*apiextensions.FieldValueErrorReason)(nil)"
                : "(*apiextensions.FieldValueErrorReason)(" + quote(r.getReason()) + ")")
                + ", FieldPath:" + quote(r.getFieldPath()) + ", OptionalOldSelf:"
                + (r.getOptionalOldSelf() == null ? "(*bool)(nil)" : "(*bool)(" + r.getOptionalOldSelf() + ")") + "}";
    }

    private static String quote(String s) {
        String v = s == null ? "" : s;
        return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
