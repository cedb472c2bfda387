package io.eventplane.core.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.eventplane.core.codec.Quantity;
import java.math.BigDecimal;
import java.util.List;

/**
 * Kubernetes' quantity library ({@code kubernetes.quantity}, 1.28+) over the project's {@link Quantity}:
 * {@code quantity()}, {@code isQuantity()}, {@code sign}, {@code isInteger/asInteger/asApproximateFloat},
 * {@code add/sub} (a quantity or an int), {@code isGreaterThan/isLessThan/compareTo}. Quantities are equal by value
 * ({@code quantity('1Gi') == quantity('1024Mi')}). {@code sign} is callable both ways: Kubernetes declares it global
 * while documenting {@code q.sign()}. The later mul/div/divInt are not in 1.33 and not here.
 */
final class QuantityLibrary extends KubernetesLibrary {
    /** Kubernetes' name for the type (apiservercel.QuantityType). */
    static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
    private static final BigDecimal MIN_LONG = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX_LONG = BigDecimal.valueOf(Long.MAX_VALUE);

    @Override
    List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("quantity",
                        newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
                newFunctionDeclaration("isQuantity",
                        newGlobalOverload("is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
                newFunctionDeclaration("sign", newGlobalOverload("quantity_sign", SimpleType.INT, QUANTITY),
                        newMemberOverload("quantity_sign_member", SimpleType.INT, QUANTITY)),
                binary("isGreaterThan", "quantity_is_greater_than", SimpleType.BOOL),
                binary("isLessThan", "quantity_is_less_than", SimpleType.BOOL),
                binary("compareTo", "quantity_compare_to", SimpleType.INT),
                newFunctionDeclaration("asApproximateFloat",
                        newMemberOverload("quantity_get_float", SimpleType.DOUBLE, QUANTITY)),
                newFunctionDeclaration("asInteger", newMemberOverload("quantity_get_int", SimpleType.INT, QUANTITY)),
                newFunctionDeclaration("isInteger",
                        newMemberOverload("quantity_is_integer", SimpleType.BOOL, QUANTITY)),
                newFunctionDeclaration("add", newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
                        newMemberOverload("quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT)),
                newFunctionDeclaration("sub", newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
                        newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT)));
    }

    private static CelFunctionDecl binary(String name, String overload, dev.cel.common.types.CelType result) {
        return newFunctionDeclaration(name, newMemberOverload(overload, result, QUANTITY, QUANTITY));
    }

    @Override
    List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_quantity", String.class, QuantityLibrary::quantity),
                CelFunctionBinding.from("is_quantity_string", String.class, Quantity::isValid),
                CelFunctionBinding.from("quantity_sign", Quantity.class, q -> (long) q.amount().signum()),
                CelFunctionBinding.from("quantity_sign_member", Quantity.class, q -> (long) q.amount().signum()),
                CelFunctionBinding.from("quantity_is_greater_than", Quantity.class, Quantity.class,
                        (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("quantity_is_less_than", Quantity.class, Quantity.class,
                        (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from("quantity_compare_to", Quantity.class, Quantity.class,
                        (a, b) -> (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from("quantity_get_float", Quantity.class, q -> q.amount().doubleValue()),
                CelFunctionBinding.from("quantity_get_int", Quantity.class, QuantityLibrary::asInteger),
                CelFunctionBinding.from("quantity_is_integer", Quantity.class, QuantityLibrary::isInteger),
                CelFunctionBinding.from("quantity_add", Quantity.class, Quantity.class, Quantity::add),
                CelFunctionBinding.from("quantity_add_int", Quantity.class, Long.class,
                        (q, n) -> q.add(Quantity.of(n))),
                CelFunctionBinding.from("quantity_sub", Quantity.class, Quantity.class, Quantity::subtract),
                CelFunctionBinding.from("quantity_sub_int", Quantity.class, Long.class,
                        (q, n) -> q.subtract(Quantity.of(n))));
    }

    private static Quantity quantity(String s) throws CelEvaluationException {
        try {
            return Quantity.parse(s);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    /** Kubernetes' AsInt64 succeeds only for a whole amount within the int64 range. */
    private static boolean isInteger(Quantity q) {
        BigDecimal v = q.amount();
        boolean whole = v.signum() == 0 || v.scale() <= 0 || v.stripTrailingZeros().scale() <= 0;
        return whole && v.compareTo(MIN_LONG) >= 0 && v.compareTo(MAX_LONG) <= 0;
    }

    private static Object asInteger(Quantity q) throws CelEvaluationException {
        if (!isInteger(q)) {
            throw error("cannot convert value to integer");
        }
        return q.amount().longValueExact();
    }
}
