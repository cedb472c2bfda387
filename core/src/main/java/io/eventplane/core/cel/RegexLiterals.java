package io.eventplane.core.cel;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.bundle.Cel;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.validator.CelAstValidator;
import java.util.List;

/**
 * Constant patterns of {@code matches}, {@code find} and {@code findAll} must compile as RE2, as in Kubernetes
 * (cel-go's regex literal validator; the regex library's compile-time optimization). cel-java's own validator compiles
 * them with java.util.regex, which refuses RE2 patterns ({@code (?P<name>...)}) and takes non-RE2 ones (look-ahead).
 * A bad matches pattern is cel-go's "invalid matches argument"; a bad find pattern carries RE2's reason.
 */
final class RegexLiterals implements CelAstValidator {
    static final RegexLiterals INSTANCE = new RegexLiterals();
    private static final List<String> FUNCTIONS = List.of("matches", "find", "findAll");

    private RegexLiterals() {
    }

    @Override
    public void validate(CelNavigableAst navigable, Cel cel, IssuesFactory issues) {
        navigable.getRoot().allNodes().forEach(node -> {
            if (node.getKind() != CelExpr.ExprKind.Kind.CALL) {
                return;
            }
            CelExpr.CelCall call = node.expr().call();
            if (!FUNCTIONS.contains(call.function())) {
                return;
            }
            // the pattern is the first argument of a member call, the second of a global matches(s, re)
            int index = call.target().isPresent() ? 0 : 1;
            if (call.args().size() <= index) {
                return;
            }
            CelExpr pattern = call.args().get(index);
            if (pattern.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                    || pattern.constant().getKind() != CelConstant.Kind.STRING_VALUE) {
                return;
            }
            try {
                Pattern.compile(pattern.constant().stringValue());
            } catch (PatternSyntaxException e) {
                issues.addError(pattern.id(), call.function().equals("matches") ? "invalid matches argument"
                        : "invalid " + call.function() + " argument: " + e.getMessage());
            }
        });
    }
}
