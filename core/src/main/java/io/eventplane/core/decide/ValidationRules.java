package io.eventplane.core.decide;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import io.eventplane.core.cel.KubernetesCel;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import io.eventplane.model.apiextensions.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * x-kubernetes-validations compiled with cel-java, as apiextensions-apiserver compiles them: {@code self} typed from
 * the schema node the rules sit on, {@code oldSelf} beside it (an optional with optionalOldSelf), the rule a bool and
 * the messageExpression a string. A node's rules are compiled once and kept while its schema object lives (a CRD
 * version's schema is one object until the definition changes), keyed by identity.
 */
final class ValidationRules {
    static final String SELF = "self";
    static final String OLD_SELF = "oldSelf";
    /** Kubernetes bounds comprehensions by cost; a bound on iterations keeps a rule from stalling the writer. */
    private static final int MAX_ITERATIONS = 1_000_000;
    private static final CelOptions OPTIONS = CelOptions.current().enableOptionalSyntax(true)
            .enableHeterogeneousNumericComparisons(true).comprehensionMaxIterations(MAX_ITERATIONS).build();
    private static final Cache<JSONSchemaProps, List<Compiled>> COMPILED = CacheBuilder.newBuilder().weakKeys().build();

    /** One compiled rule; {@code error} says why it did not compile (then nothing else is set). */
    record Compiled(ValidationRule rule, CelRuntime.Program program, CelRuntime.Program message, boolean usesOldSelf,
                    String error, String messageError) {
        boolean optionalOldSelf() {
            return Boolean.TRUE.equals(rule.getOptionalOldSelf());
        }
    }

    private ValidationRules() {
    }

    /** The node's rules, compiled (once per schema object); empty without rules. */
    static List<Compiled> of(JSONSchemaProps node, boolean root) {
        List<ValidationRule> rules = node.getXKubernetesValidations();
        if (rules == null || rules.isEmpty()) {
            return List.of();
        }
        try {
            return COMPILED.get(node, () -> compile(node, root));
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private static List<Compiled> compile(JSONSchemaProps node, boolean root) {
        CelType self = type(node, root);
        List<Compiled> out = new ArrayList<>();
        for (ValidationRule rule : node.getXKubernetesValidations()) {
            boolean optional = Boolean.TRUE.equals(rule.getOptionalOldSelf());
            Cel cel = environment(self, optional ? OptionalType.create(self) : self);
            String source = rule.getRule() == null ? "" : rule.getRule();
            CelValidationResult result = cel.compile(source);
            if (result.hasError()) {
                out.add(new Compiled(rule, null, null, false, "compilation failed: " + result.getErrorString(), null));
                continue;
            }
            try {
                CelAbstractSyntaxTree ast = result.getAst();
                String literals = KubernetesCel.literalErrors(cel, ast);
                if (literals != null) {
                    out.add(new Compiled(rule, null, null, false, "compilation failed: " + literals, null));
                    continue;
                }
                if (!ast.getResultType().equals(SimpleType.BOOL) && !ast.getResultType().equals(SimpleType.DYN)) {
                    out.add(new Compiled(rule, null, null, false, "compilation failed: cel expression must evaluate "
                            + "to a bool", null));
                    continue;
                }
                boolean usesOldSelf = ast.getReferenceMap().values().stream()
                        .anyMatch(r -> OLD_SELF.equals(r.name()));
                CelRuntime.Program message = null;
                String messageError = null;
                if (rule.getMessageExpression() != null && !rule.getMessageExpression().isBlank()) {
                    CelValidationResult m = cel.compile(rule.getMessageExpression());
                    if (m.hasError()) {
                        messageError = "messageExpression compilation failed: " + m.getErrorString();
                    } else if (!m.getAst().getResultType().equals(SimpleType.STRING)
                            && !m.getAst().getResultType().equals(SimpleType.DYN)) {
                        messageError = "must evaluate to a string";
                    } else {
                        message = cel.createProgram(m.getAst());
                    }
                }
                out.add(new Compiled(rule, cel.createProgram(ast), message, usesOldSelf, null, messageError));
            } catch (CelValidationException | CelEvaluationException e) {
                out.add(new Compiled(rule, null, null, false, "compilation failed: " + e.getMessage(), null));
            }
        }
        return List.copyOf(out);
    }

    /** Kubernetes' CEL environment for CRD rules (see {@link KubernetesCel}), with self and oldSelf. */
    private static Cel environment(CelType self, CelType oldSelf) {
        return KubernetesCel.builder(OPTIONS, CelNameFormats.all()).addVar(SELF, self).addVar(OLD_SELF, oldSelf)
                .build();
    }

    /**
     * The CEL type of a value below {@code s}: scalars by their type, arrays as lists, maps (additionalProperties)
     * as maps of their values' type; objects with properties are maps of dyn (fields are selected by name), and
     * int-or-string or unknown-preserving values are dyn.
     */
    static CelType type(JSONSchemaProps s, boolean root) {
        if (s == null || Boolean.TRUE.equals(s.getXKubernetesIntOrString())) {
            return SimpleType.DYN;
        }
        String type = s.getType() == null ? "" : s.getType();
        return switch (type) {
            case "string" -> SimpleType.STRING;
            case "integer" -> SimpleType.INT;
            case "number" -> SimpleType.DOUBLE;
            case "boolean" -> SimpleType.BOOL;
            case "array" -> ListType.create(type(s.getItems(), false));
            case "object" -> !root && s.getAdditionalProperties() instanceof JSONSchemaProps values
                    && (s.getProperties() == null || s.getProperties().isEmpty())
                    ? MapType.create(SimpleType.STRING, type(values, false))
                    : MapType.create(SimpleType.STRING, SimpleType.DYN);
            default -> SimpleType.DYN;
        };
    }

    /** Compiles every rule below {@code root}, calling {@code problems} with each rule's path and what is wrong. */
    static void check(JSONSchemaProps s, String path, boolean root, Problems problems) {
        if (s == null) {
            return;
        }
        List<Compiled> compiled = of(s, root);
        for (int i = 0; i < compiled.size(); i++) {
            problems.rule(path + ".x-kubernetes-validations[" + i + "]", s, compiled.get(i));
        }
        Map<String, JSONSchemaProps> props = s.getProperties() == null ? Map.of() : s.getProperties();
        props.forEach((k, v) -> check(v, path + ".properties[" + k + "]", false, problems));
        if (s.getAdditionalProperties() instanceof JSONSchemaProps values) {
            check(values, path + ".additionalProperties", false, problems);
        }
        check(s.getItems(), path + ".items", false, problems);
    }

    interface Problems {
        void rule(String path, JSONSchemaProps node, Compiled compiled);
    }
}
