package io.eventplane.core.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kubernetes' list library ({@code kubernetes.lists}, version 0 as 1.33 serves it): {@code isSorted}, {@code sum},
 * {@code min}, {@code max}, {@code indexOf}, {@code lastIndexOf} on lists.
 *
 * <p>Kubernetes declares isSorted/sum/min/max once per element type (int, uint, double, bool, duration, timestamp,
 * string, bytes). Here each is one overload over {@code list(A)}: our objects are {@code map(string, dyn)}, so a field
 * is often dyn, and cel-java refuses a call on dyn that several same-class overloads could take ("Ambiguous
 * overloads"). The price: a list of a non-comparable type compiles and fails when evaluated instead.
 */
final class ListsLibrary extends KubernetesLibrary {
    private static final TypeParamType A = TypeParamType.create("A");
    private static final ListType LIST_A = ListType.create(A);

    @Override
    List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("isSorted", newMemberOverload("list_a_is_sorted_bool", SimpleType.BOOL, LIST_A)),
                newFunctionDeclaration("sum", newMemberOverload("list_a_sum_a", A, LIST_A)),
                newFunctionDeclaration("min", newMemberOverload("list_a_min_a", A, LIST_A)),
                newFunctionDeclaration("max", newMemberOverload("list_a_max_a", A, LIST_A)),
                newFunctionDeclaration("indexOf", newMemberOverload("list_a_index_of_int", SimpleType.INT, LIST_A, A)),
                newFunctionDeclaration("lastIndexOf",
                        newMemberOverload("list_a_last_index_of_int", SimpleType.INT, LIST_A, A)));
    }

    @Override
    List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("list_a_is_sorted_bool", List.class, ListsLibrary::isSorted),
                CelFunctionBinding.from("list_a_sum_a", List.class, ListsLibrary::sum),
                CelFunctionBinding.from("list_a_min_a", List.class, list -> extreme(list, "min", 1)),
                CelFunctionBinding.from("list_a_max_a", List.class, list -> extreme(list, "max", -1)),
                CelFunctionBinding.from("list_a_index_of_int", List.class, Object.class,
                        (list, item) -> indexOf(list, item, false)),
                CelFunctionBinding.from("list_a_last_index_of_int", List.class, Object.class,
                        (list, item) -> indexOf(list, item, true)));
    }

    private static Object isSorted(List<?> list) throws CelEvaluationException {
        for (int i = 1; i < list.size(); i++) {
            if (compare(list.get(i - 1), list.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    /** The smallest (min) or largest (max) element; {@code replaceWhen} is the comparison result that replaces it. */
    private static Object extreme(List<?> list, String name, int replaceWhen) throws CelEvaluationException {
        if (list.isEmpty()) {
            throw error("%s called on empty list", name);
        }
        Object result = list.get(0);
        for (int i = 1; i < list.size(); i++) {
            if (Integer.signum(compare(result, list.get(i))) == replaceWhen) {
                result = list.get(i);
            }
        }
        return result;
    }

    private static Object sum(List<?> list) throws CelEvaluationException {
        Object acc = null;
        for (Object item : list) {
            acc = acc == null ? summable(item) : add(acc, item);
        }
        return acc == null ? (Object) 0L : acc;
    }

    private static Object summable(Object item) throws CelEvaluationException {
        if (item instanceof Long || item instanceof Double || item instanceof UnsignedLong
                || item instanceof java.time.Duration || item instanceof com.google.protobuf.Duration) {
            return item;
        }
        throw noSuchOverload("sum", item);
    }

    private static Object add(Object a, Object b) throws CelEvaluationException {
        try {
            if (a instanceof Long x && b instanceof Long y) {
                return Math.addExact(x, y);
            }
            if (a instanceof Double x && b instanceof Double y) {
                return x + y;
            }
            if (a instanceof UnsignedLong x && b instanceof UnsignedLong y) {
                UnsignedLong s = x.plus(y);
                if (s.compareTo(x) < 0) {
                    throw error("unsigned integer overflow");
                }
                return s;
            }
            if (a instanceof java.time.Duration x && b instanceof java.time.Duration y) {
                return x.plus(y);
            }
            if (a instanceof com.google.protobuf.Duration x && b instanceof com.google.protobuf.Duration y) {
                java.time.Duration s = java.time.Duration.ofSeconds(x.getSeconds(), x.getNanos())
                        .plusSeconds(y.getSeconds()).plusNanos(y.getNanos());
                return com.google.protobuf.Duration.newBuilder().setSeconds(s.getSeconds()).setNanos(s.getNano())
                        .build();
            }
        } catch (ArithmeticException e) {
            throw error("integer overflow");
        }
        throw noSuchOverload("sum", b);
    }

    private static Object indexOf(List<?> list, Object item, boolean last) {
        for (int n = 0; n < list.size(); n++) {
            int i = last ? list.size() - 1 - n : n;
            if (equal(list.get(i), item)) {
                return (long) i;
            }
        }
        return -1L;
    }

    /** CEL ordering: numbers across int, uint and double; strings by code point; bytes unsigned; bools false first. */
    static int compare(Object a, Object b) throws CelEvaluationException {
        if (isNumber(a) && isNumber(b)) {
            if (isNaN(a) || isNaN(b)) {
                throw error("NaN values cannot be ordered");
            }
            return compareNumbers(a, b);
        }
        if (a instanceof String x && b instanceof String y) {
            return compareCodePoints(x, y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        if (a instanceof CelByteString x && b instanceof CelByteString y) {
            return CelByteString.unsignedLexicographicalComparator().compare(x, y);
        }
        if (a instanceof com.google.protobuf.Duration x && b instanceof com.google.protobuf.Duration y) {
            int c = Long.compare(x.getSeconds(), y.getSeconds());
            return c != 0 ? c : Integer.compare(x.getNanos(), y.getNanos());
        }
        if (a instanceof com.google.protobuf.Timestamp x && b instanceof com.google.protobuf.Timestamp y) {
            int c = Long.compare(x.getSeconds(), y.getSeconds());
            return c != 0 ? c : Integer.compare(x.getNanos(), y.getNanos());
        }
        if (a != null && b != null && a.getClass() == b.getClass() && a instanceof Comparable<?>) {
            @SuppressWarnings("unchecked")
            Comparable<Object> x = (Comparable<Object>) a;
            return x.compareTo(b);
        }
        throw noSuchOverload("_<_", b);
    }

    /** CEL equality: numbers by value across types, lists and maps by their elements, everything else by equals. */
    static boolean equal(Object a, Object b) {
        if (isNumber(a) && isNumber(b)) {
            return !isNaN(a) && !isNaN(b) && compareNumbers(a, b) == 0;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!equal(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : x.entrySet()) {
                if (!y.containsKey(e.getKey()) || !equal(e.getValue(), y.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    private static boolean isNumber(Object o) {
        return o instanceof Long || o instanceof Double || o instanceof UnsignedLong;
    }

    private static boolean isNaN(Object o) {
        return o instanceof Double d && d.isNaN();
    }

    private static int compareNumbers(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Double x && b instanceof Double y) {
            return Double.compare(x, y);
        }
        return new java.math.BigDecimal(numberText(a)).compareTo(new java.math.BigDecimal(numberText(b)));
    }

    private static String numberText(Object n) {
        if (n instanceof Double d) {
            if (d.isInfinite()) {
                return d > 0 ? "1e400" : "-1e400"; // beyond any double, so infinities order around them
            }
            return java.math.BigDecimal.valueOf(d).toPlainString();
        }
        return n.toString();
    }

    private static int compareCodePoints(String x, String y) {
        int i = 0;
        int j = 0;
        while (i < x.length() && j < y.length()) {
            int a = x.codePointAt(i);
            int b = y.codePointAt(j);
            if (a != b) {
                return Integer.compare(a, b);
            }
            i += Character.charCount(a);
            j += Character.charCount(b);
        }
        return Integer.compare(x.length() - i, y.length() - j);
    }

    static CelEvaluationException noSuchOverload(String function, Object arg) {
        return error("no such overload: %s(%s)", function, arg == null ? "null" : arg.getClass().getSimpleName());
    }
}
