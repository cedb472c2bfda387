package io.eventplane.core.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.eventplane.core.codec.Quantity;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * cel-go's {@code string.format(list)} (extended strings, version 1 and up), which cel-java's strings extension lacks:
 * {@code %s %d %f %e %b %x %X %o}, {@code %.Nf} precision and {@code %%}, in cel-go's en_US locale (grouped thousands
 * in {@code %f}; {@code %e} always six digits, as cel-go's takes the precision for a width). Errors are cel-go's
 * ({@code error during formatting: decimal clause can only be used on integers, was given double}).
 */
final class StringFormatLibrary extends KubernetesLibrary {
    private static final int DEFAULT_PRECISION = 6;

    @Override
    List<CelFunctionDecl> functions() {
        return List.of(newFunctionDeclaration("format", newMemberOverload("string_format", SimpleType.STRING,
                SimpleType.STRING, ListType.create(SimpleType.DYN))));
    }

    @Override
    List<CelFunctionBinding> bindings() {
        return List.of(CelFunctionBinding.from("string_format", String.class, List.class, StringFormatLibrary::format));
    }

    static String format(String template, List<?> args) throws CelEvaluationException {
        StringBuilder out = new StringBuilder();
        int argIndex = 0;
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c != '%') {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 < template.length() && template.charAt(i + 1) == '%') {
                out.append('%');
                i += 2;
                continue;
            }
            if (argIndex >= args.size()) {
                throw error("index %d out of range", argIndex);
            }
            if (i + 1 >= template.length()) {
                throw error("unexpected end of string");
            }
            int pos = i + 1;
            Integer precision = null;
            if (template.charAt(pos) == '.') {
                int start = ++pos;
                while (pos < template.length() && template.charAt(pos) >= '0' && template.charAt(pos) <= '9') {
                    pos++;
                }
                if (pos >= template.length()) {
                    throw error("could not parse formatting clause: error while parsing precision: could not find "
                            + "end of precision specifier");
                }
                precision = pos == start ? 0 : Integer.parseInt(template.substring(start, pos));
            }
            char verb = template.charAt(pos);
            Object arg = args.get(argIndex);
            String formatted = switch (verb) {
                case 's' -> string(arg);
                case 'd' -> decimal(arg);
                case 'f' -> fixed(arg, precision == null ? DEFAULT_PRECISION : precision);
                case 'e' -> scientific(arg);
                case 'b' -> radix(arg, 2, "only integers and bools can be formatted as binary", true);
                case 'o' -> radix(arg, 8, "octal clause can only be used on integers", false);
                case 'x', 'X' -> hex(arg, verb == 'X');
                default -> throw error("could not parse formatting clause: unrecognized formatting clause \"%c\"",
                        verb);
            };
            out.append(formatted);
            i = pos + 1;
            argIndex++;
        }
        return out.toString();
    }

    private static String string(Object arg) throws CelEvaluationException {
        if (arg instanceof List<?> || arg instanceof Map<?, ?>) {
            return literal(arg);
        }
        String text = plain(arg);
        if (text == null) {
            throw formatting("string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, "
                    + "types, durations, and timestamps, was given " + typeName(arg));
        }
        return text;
    }

    /** A scalar as CEL's string() converts it; null when it has no string form. */
    private static String plain(Object arg) {
        if (arg instanceof String s) {
            return s;
        }
        if (arg instanceof Long || arg instanceof UnsignedLong || arg instanceof Boolean) {
            return arg.toString();
        }
        if (arg instanceof Double d) {
            return goFloat(d);
        }
        if (arg instanceof CelByteString b) {
            return b.toStringUtf8();
        }
        if (arg instanceof dev.cel.common.values.NullValue) {
            return "null";
        }
        if (arg instanceof java.time.Duration d) {
            return new BigDecimal(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9)).stripTrailingZeros()
                    .toPlainString() + "s";
        }
        if (arg instanceof com.google.protobuf.Duration d) {
            return plain(java.time.Duration.ofSeconds(d.getSeconds(), d.getNanos()));
        }
        if (arg instanceof java.time.Instant t) {
            return t.toString();
        }
        if (arg instanceof com.google.protobuf.Timestamp t) {
            return java.time.Instant.ofEpochSecond(t.getSeconds(), t.getNanos()).toString();
        }
        return null;
    }

    /** A list or map member as cel-go prints it inside %s: strings quoted, doubles fixed, maps sorted by key. */
    private static String literal(Object arg) throws CelEvaluationException {
        if (arg instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            for (Object item : list) {
                parts.add(literal(item));
            }
            return "[" + String.join(", ", parts) + "]";
        }
        if (arg instanceof Map<?, ?> map) {
            List<String[]> pairs = new ArrayList<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                pairs.add(new String[] {literal(e.getKey()), literal(e.getValue())});
            }
            pairs.sort((a, b) -> a[0].compareTo(b[0]));
            List<String> parts = new ArrayList<>();
            pairs.forEach(p -> parts.add(p[0] + ":" + p[1]));
            return "{" + String.join(", ", parts) + "}";
        }
        if (arg instanceof String s) {
            return quote(s);
        }
        if (arg instanceof CelByteString b) {
            return "b" + quote(b.toStringUtf8());
        }
        if (arg instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? quote(goFloat(d)) : String.format(Locale.ROOT, "%.6f", d);
        }
        if (arg instanceof java.time.Duration || arg instanceof com.google.protobuf.Duration) {
            return "duration(" + quote(plain(arg)) + ")";
        }
        if (arg instanceof java.time.Instant || arg instanceof com.google.protobuf.Timestamp) {
            return "timestamp(" + quote(plain(arg)) + ")";
        }
        return string(arg);
    }

    private static String decimal(Object arg) throws CelEvaluationException {
        if (arg instanceof Long || arg instanceof UnsignedLong) {
            return arg.toString();
        }
        throw formatting("decimal clause can only be used on integers, was given " + typeName(arg));
    }

    private static String fixed(Object arg, int precision) throws CelEvaluationException {
        Double d = number(arg, "fixed-point clause can only be used on doubles, was given ");
        if (d.isNaN()) {
            return "NaN";
        }
        if (d.isInfinite()) {
            return d > 0 ? "∞" : "-∞";
        }
        return String.format(Locale.US, "%,." + precision + "f", d);
    }

    private static String scientific(Object arg) throws CelEvaluationException {
        Double d = number(arg, "scientific clause can only be used on doubles, was given ");
        if (d.isNaN()) {
            return "NaN";
        }
        if (d.isInfinite()) {
            return d > 0 ? "∞" : "-∞";
        }
        return String.format(Locale.US, "%." + DEFAULT_PRECISION + "e", d);
    }

    /** A double, or one of the strings NaN, Infinity, -Infinity (which cel-go also takes). */
    private static Double number(Object arg, String problem) throws CelEvaluationException {
        if (arg instanceof Double d) {
            return d;
        }
        if (arg instanceof String s && List.of("NaN", "Infinity", "-Infinity").contains(s)) {
            return Double.valueOf(s);
        }
        throw formatting(problem + typeName(arg));
    }

    private static String radix(Object arg, int radix, String problem, boolean bools) throws CelEvaluationException {
        if (arg instanceof Long n) {
            return Long.toString(n, radix);
        }
        if (arg instanceof UnsignedLong n) {
            return n.toString(radix);
        }
        if (bools && arg instanceof Boolean b) {
            return b ? "1" : "0";
        }
        throw formatting(problem + ", was given " + typeName(arg));
    }

    private static String hex(Object arg, boolean upper) throws CelEvaluationException {
        String out;
        if (arg instanceof Long n) {
            out = Long.toString(n, 16);
        } else if (arg instanceof UnsignedLong n) {
            out = n.toString(16);
        } else if (arg instanceof String || arg instanceof CelByteString) {
            byte[] bytes = arg instanceof String s ? s.getBytes(StandardCharsets.UTF_8)
                    : ((CelByteString) arg).toByteArray();
            StringBuilder b = new StringBuilder();
            for (byte x : bytes) {
                b.append(String.format("%02x", x & 0xff));
            }
            out = b.toString();
        } else {
            throw formatting("only integers, byte buffers, and strings can be formatted as hex, was given "
                    + typeName(arg));
        }
        return upper ? out.toUpperCase(Locale.ROOT) : out;
    }

    private static CelEvaluationException formatting(String problem) {
        return error("error during formatting: %s", problem);
    }

    /** Go's strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form below 1e-4 and from 1e21. */
    static String goFloat(double d) {
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        BigDecimal v = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        int exponent = v.precision() - v.scale() - 1;
        if (exponent < -4 || exponent >= 21) {
            String digits = v.unscaledValue().abs().toString();
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return (d < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                    + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        }
        return v.toPlainString();
    }

    /** The CEL type name of a runtime value, for messages. */
    static String typeName(Object arg) {
        if (arg instanceof String) {
            return "string";
        }
        if (arg instanceof Long) {
            return "int";
        }
        if (arg instanceof UnsignedLong) {
            return "uint";
        }
        if (arg instanceof Double) {
            return "double";
        }
        if (arg instanceof Boolean) {
            return "bool";
        }
        if (arg instanceof List<?>) {
            return "list";
        }
        if (arg instanceof Map<?, ?>) {
            return "map";
        }
        if (arg instanceof CelByteString) {
            return "bytes";
        }
        if (arg instanceof java.time.Duration || arg instanceof com.google.protobuf.Duration) {
            return "google.protobuf.Duration";
        }
        if (arg instanceof java.time.Instant || arg instanceof com.google.protobuf.Timestamp) {
            return "google.protobuf.Timestamp";
        }
        if (arg instanceof Optional<?>) {
            return "optional_type";
        }
        if (arg instanceof IpAddress) {
            return IpLibrary.IP.name();
        }
        if (arg instanceof IpPrefix) {
            return CidrLibrary.CIDR.name();
        }
        if (arg instanceof RequestUrl) {
            return UrlsLibrary.URL.name();
        }
        if (arg instanceof Quantity) {
            return QuantityLibrary.QUANTITY.name();
        }
        if (arg instanceof Semver) {
            return SemverLibrary.SEMVER.name();
        }
        if (arg instanceof FormatLibrary.NamedFormat) {
            return FormatLibrary.FORMAT.name();
        }
        return arg == null ? "null_type" : arg.getClass().getSimpleName();
    }
}
