package io.eventplane.core.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypes;
import dev.cel.common.types.OptionalType;
import dev.cel.validator.CelAstValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Kubernetes' homogeneous aggregate literals: a list literal's elements, a map literal's keys and its values, each of
 * one type ({@code [1, 'a']} is refused), except inside string.format's arguments. Unlike cel-java's own validator a
 * dyn element matches any type: where Kubernetes knows a field's type ({@code [0, self.replicas]}), our objects give
 * dyn, and such a rule must still compile.
 */
final class HomogeneousLiterals implements CelAstValidator {
    static final HomogeneousLiterals INSTANCE = new HomogeneousLiterals();

    private HomogeneousLiterals() {
    }

    @Override
    public void validate(CelNavigableAst navigable, Cel cel, IssuesFactory issues) {
        CelAbstractSyntaxTree ast = navigable.getAst();
        navigable.getRoot().allNodes().forEach(node -> {
            if (insideFormat(node)) {
                return;
            }
            CelExpr expr = node.expr();
            if (node.getKind() == CelExpr.ExprKind.Kind.LIST) {
                List<Long> ids = new ArrayList<>();
                expr.list().elements().forEach(e -> ids.add(e.id()));
                check(ast, ids, expr.list().optionalIndices(), issues);
            } else if (node.getKind() == CelExpr.ExprKind.Kind.MAP) {
                List<Long> keys = new ArrayList<>();
                List<Long> values = new ArrayList<>();
                expr.map().entries().forEach(e -> {
                    keys.add(e.key().id());
                    values.add(e.value().id());
                });
                check(ast, keys, List.of(), issues);
                check(ast, values, List.of(), issues);
            }
        });
    }

    private static void check(CelAbstractSyntaxTree ast, List<Long> ids, List<Integer> optional, IssuesFactory issues) {
        CelType first = null;
        for (int i = 0; i < ids.size(); i++) {
            Optional<CelType> found = ast.getType(ids.get(i));
            if (found.isEmpty()) {
                continue;
            }
            CelType type = found.get();
            if (optional.contains(i) && type instanceof OptionalType o) {
                type = o.parameters().get(0);
            }
            if (type.kind() == CelKind.DYN) {
                continue;
            }
            if (first == null) {
                first = type;
            } else if (!first.equals(type)) {
                issues.addError(ids.get(i), "expected type '" + CelTypes.format(first) + "' but found '"
                        + CelTypes.format(type) + "'");
                return;
            }
        }
    }

    private static boolean insideFormat(CelNavigableExpr node) {
        for (Optional<CelNavigableExpr> p = node.parent(); p.isPresent(); p = p.get().parent()) {
            if (p.get().getKind() == CelExpr.ExprKind.Kind.CALL && "format".equals(p.get().expr().call().function())) {
                return true;
            }
        }
        return false;
    }
}
