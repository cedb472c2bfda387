package io.eventplane.core.codec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Kubernetes {@code resource.Quantity}: a fixed-point number with a decimal SI ({@code m, k, M, G, T, P, E}, also
 * {@code n, u}), binary SI ({@code Ki .. Ei}) or decimal exponent ({@code e3}, {@code E-2}) suffix. Parsing follows
 * Kubernetes: values are exact, anything finer than a nano unit is rounded up to 1n, binary values are capped at
 * 2^63-1, and {@link #toString()} prints the canonical form Kubernetes serialises ({@code 1.5 -> 1500m},
 * {@code 1.5Gi -> 1536Mi}, {@code 1000 -> 1k}). Equality and ordering compare the amounts, not the spelling.
 */
public final class Quantity implements Comparable<Quantity> {

    /** How the quantity is printed, as in Kubernetes. */
    public enum Format { DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT }

    static final String FORMAT_MESSAGE =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    static final String SUFFIX_MESSAGE = "unable to parse quantity's suffix";
    static final String NUMERIC_MESSAGE = "unable to parse numeric part of quantity";

    private static final Map<String, Integer> DECIMAL_SUFFIXES = Map.of(
            "n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    private static final Map<String, Integer> BINARY_SUFFIXES = Map.of(
            "Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
    private static final String[] DECIMAL_BY_EXPONENT = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    private static final String[] BINARY_BY_EXPONENT = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final String SUFFIX_CHARS = "eEinumkKMGTP";
    private static final BigDecimal MAX_BINARY = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigInteger KI = BigInteger.valueOf(1024);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    /** Larger decimal exponents would make rounding to nano units allocate megabytes; no real quantity needs them. */
    private static final int MAX_EXPONENT = 1000;

    private final BigDecimal amount;
    private final Format format;

    private Quantity(BigDecimal amount, Format format) {
        this.amount = amount;
        this.format = format;
    }

    /**
     * Quantities parsed lately, by their text: a cluster spells the same few ("100m", "128Mi") on every pod, and each
     * is parsed several times per change (validation, limits against requests, the scheduler's fit). Bounded, since
     * the texts come from users; a full cache still answers, it only stops learning.
     */
    private static final Map<String, Quantity> PARSED = new ConcurrentHashMap<>();
    static final int PARSED_AT_MOST = 4096;

    /** Parses the Kubernetes quantity grammar; throws {@link IllegalArgumentException} with Kubernetes' message. */
    public static Quantity parse(String text) {
        Quantity known = text == null ? null : PARSED.get(text);
        if (known != null) {
            return known;
        }
        Quantity parsed = parseText(text);
        if (PARSED.size() < PARSED_AT_MOST) {
            PARSED.put(text, parsed);
        }
        return parsed;
    }

    private static Quantity parseText(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException(FORMAT_MESSAGE);
        }
        int end = text.length();
        int pos = 0;
        boolean negative = false;
        char first = text.charAt(0);
        if (first == '-' || first == '+') {
            negative = first == '-';
            pos++;
        }
        int numberStart = pos;
        int digits = 0;
        while (pos < end && isDigit(text.charAt(pos))) {
            pos++;
            digits++;
        }
        if (pos < end && text.charAt(pos) == '.') {
            pos++;
            while (pos < end && isDigit(text.charAt(pos))) {
                pos++;
                digits++;
            }
        }
        String number = text.substring(numberStart, pos);
        if (number.isEmpty()) {
            throw new IllegalArgumentException(FORMAT_MESSAGE);
        }
        int suffixStart = pos;
        while (pos < end && SUFFIX_CHARS.indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos < end && (text.charAt(pos) == '-' || text.charAt(pos) == '+')) {
            pos++;
        }
        while (pos < end && isDigit(text.charAt(pos))) {
            pos++;
        }
        if (pos < end) {
            throw new IllegalArgumentException(FORMAT_MESSAGE);
        }
        if (digits == 0) {
            throw new IllegalArgumentException(NUMERIC_MESSAGE);
        }
        String suffix = text.substring(suffixStart);

        BigDecimal mantissa = new BigDecimal(number.endsWith(".") ? number.substring(0, number.length() - 1) : number);
        BigDecimal value;
        Format format;
        Integer decimal = DECIMAL_SUFFIXES.get(suffix);
        Integer binary = BINARY_SUFFIXES.get(suffix);
        if (decimal != null) {
            format = Format.DECIMAL_SI;
            value = mantissa.scaleByPowerOfTen(decimal);
        } else if (binary != null) {
            format = Format.BINARY_SI;
            value = mantissa.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(binary)));
        } else if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            int exponent;
            try {
                exponent = Integer.parseInt(suffix.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(SUFFIX_MESSAGE);
            }
            if (Math.abs(exponent) > MAX_EXPONENT) {
                throw new IllegalArgumentException(SUFFIX_MESSAGE);
            }
            format = Format.DECIMAL_EXPONENT;
            value = mantissa.scaleByPowerOfTen(exponent);
        } else {
            throw new IllegalArgumentException(SUFFIX_MESSAGE);
        }
        // Kubernetes rounds up to the smallest unit it can represent (1n): asking for a little gets a little.
        if (value.scale() > 9) {
            value = value.setScale(9, RoundingMode.UP);
        }
        if (format == Format.BINARY_SI && value.compareTo(MAX_BINARY) > 0) {
            value = MAX_BINARY;
        }
        if (format == Format.BINARY_SI && value.signum() != 0 && value.compareTo(BigDecimal.ONE) < 0) {
            format = Format.DECIMAL_SI;
        }
        return new Quantity(negative ? value.negate() : value, format);
    }

    /** True when {@code text} is a valid quantity. */
    public static boolean isValid(String text) {
        try {
            parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The exact amount. */
    public BigDecimal amount() {
        return amount;
    }

    public Format format() {
        return format;
    }

    /** The amount in whole units, rounded up (Kubernetes' {@code Value()}); saturates at the long range. */
    public long value() {
        return saturate(amount.setScale(0, RoundingMode.CEILING));
    }

    /** The amount in thousandths, rounded up (Kubernetes' {@code MilliValue()}); saturates at the long range. */
    public long milliValue() {
        return saturate(amount.multiply(THOUSAND).setScale(0, RoundingMode.CEILING));
    }

    private static long saturate(BigDecimal whole) {
        BigInteger v = whole.toBigIntegerExact();
        if (v.bitLength() > 63) {
            return v.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return v.longValue();
    }

    /** This plus {@code other} (Kubernetes' Add): this one's format, or the other's when this is zero. */
    public Quantity add(Quantity other) {
        return new Quantity(amount.add(other.amount), isZero() ? other.format : format);
    }

    /** This minus {@code other} (Kubernetes' Sub): formatted as {@link #add}. */
    public Quantity subtract(Quantity other) {
        return new Quantity(amount.subtract(other.amount), isZero() ? other.format : format);
    }

    /** A whole count in decimal SI ({@code resource.NewQuantity(n, DecimalSI)}). */
    public static Quantity of(long n) {
        return new Quantity(BigDecimal.valueOf(n), Format.DECIMAL_SI);
    }

    public boolean isZero() {
        return amount.signum() == 0;
    }

    public static int compare(Quantity a, Quantity b) {
        return a.amount.compareTo(b.amount);
    }

    @Override
    public int compareTo(Quantity other) {
        return compare(this, other);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && amount.compareTo(q.amount) == 0;
    }

    @Override
    public int hashCode() {
        return amount.signum() == 0 ? 0 : amount.stripTrailingZeros().hashCode();
    }

    /** The canonical form, as Kubernetes prints it: no fraction digits, the largest suffix that keeps the value exact. */
    public String canonical() {
        if (amount.signum() == 0) {
            return "0";
        }
        String sign = amount.signum() < 0 ? "-" : "";
        BigDecimal abs = amount.abs();
        Format f = format;
        if (f == Format.BINARY_SI && (abs.compareTo(BigDecimal.valueOf(1024)) < 0 || !isInteger(abs))) {
            f = Format.DECIMAL_SI; // as Kubernetes: small or fractional binary values print in decimal, without rounding
        }
        if (f == Format.BINARY_SI) {
            BigInteger m = abs.toBigIntegerExact();
            int exponent = 0;
            while (exponent < 60 && m.mod(KI).signum() == 0) {
                m = m.divide(KI);
                exponent += 10;
            }
            return sign + m + BINARY_BY_EXPONENT[exponent / 10];
        }
        BigDecimal stripped = abs.stripTrailingZeros();
        BigInteger m = stripped.unscaledValue();
        int exponent = -stripped.scale();
        while (exponent % 3 != 0) {
            m = m.multiply(BigInteger.TEN);
            exponent--;
        }
        String suffix;
        if (f == Format.DECIMAL_EXPONENT) {
            suffix = exponent == 0 ? "" : "e" + exponent;
        } else if (exponent >= -9 && exponent <= 18) {
            suffix = DECIMAL_BY_EXPONENT[exponent / 3 + 3];
        } else {
            suffix = "e" + exponent;
        }
        return sign + m + suffix;
    }

    private static boolean isInteger(BigDecimal v) {
        return v.signum() == 0 || v.scale() <= 0 || v.stripTrailingZeros().scale() <= 0;
    }

    @Override
    public String toString() {
        return canonical();
    }
}
