package io.eventplane.core.cel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A semantic version as github.com/blang/semver/v4 (which Kubernetes' semver library uses) parses and orders it:
 * major.minor.patch, dot-separated pre-release identifiers (numeric ones ordered as numbers, below alphanumeric ones; a
 * release above its pre-releases), build metadata ignored in comparisons and equality.
 */
final class Semver implements Comparable<Semver> {
    private static final String ALPHANUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

    final long major;
    final long minor;
    final long patch;
    private final List<String> pre;

    private Semver(long major, long minor, long patch, List<String> pre) {
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.pre = pre;
    }

    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    static Semver parse(String s) throws Invalid {
        if (s.isEmpty()) {
            throw new Invalid("Version string empty");
        }
        String[] parts = s.split("\\.", 3);
        if (parts.length != 3) {
            throw new Invalid("No Major.Minor.Patch elements found");
        }
        long major = number(parts[0], "major", "Major");
        long minor = number(parts[1], "minor", "Minor");
        String patch = parts[2];
        List<String> build = List.of();
        List<String> pre = List.of();
        if (patch.indexOf('+') >= 0) {
            build = Arrays.asList(patch.substring(patch.indexOf('+') + 1).split("\\.", -1));
            patch = patch.substring(0, patch.indexOf('+'));
        }
        if (patch.indexOf('-') >= 0) {
            pre = Arrays.asList(patch.substring(patch.indexOf('-') + 1).split("\\.", -1));
            patch = patch.substring(0, patch.indexOf('-'));
        }
        long patchNumber = number(patch, "patch", "Patch");
        for (String p : pre) {
            if (p.isEmpty()) {
                throw new Invalid("Prerelease is empty");
            }
            if (!only(p, ALPHANUM)) {
                throw new Invalid("Invalid character(s) found in prerelease " + KubernetesLibrary.quote(p));
            }
            if (only(p, "0123456789") && p.length() > 1 && p.charAt(0) == '0') {
                throw new Invalid("Numeric PreRelease version must not contain leading zeroes "
                        + KubernetesLibrary.quote(p));
            }
        }
        for (String b : build) {
            if (b.isEmpty()) {
                throw new Invalid("Buildversion is empty");
            }
            if (!only(b, ALPHANUM)) {
                throw new Invalid("Invalid character(s) found in build meta data " + KubernetesLibrary.quote(b));
            }
        }
        return new Semver(major, minor, patchNumber, pre);
    }

    /**
     * Kubernetes' normalizeAndParse: a leading "v" dropped, leading zeros removed, missing minor and patch filled
     * with 0 (a short version may not carry pre-release or build data).
     */
    static Semver parseNormalized(String s) throws Invalid {
        String[] split = (s.startsWith("v") ? s.substring(1) : s).split("\\.", 3);
        List<String> parts = new ArrayList<>(Arrays.asList(split));
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (p.length() > 1) {
                p = p.replaceFirst("^0+", "");
                if (p.isEmpty() || p.charAt(0) < '0' || p.charAt(0) > '9') {
                    p = "0" + p;
                }
                parts.set(i, p);
            }
        }
        if (parts.size() < 3) {
            String last = parts.get(parts.size() - 1);
            if (last.contains("+") || last.contains("-")) {
                throw new Invalid("short version cannot contain PreRelease/Build meta data");
            }
            while (parts.size() < 3) {
                parts.add("0");
            }
        }
        return parse(String.join(".", parts));
    }

    private static long number(String text, String name, String capitalized) throws Invalid {
        if (!only(text, "0123456789")) {
            throw new Invalid("Invalid character(s) found in " + name + " number " + KubernetesLibrary.quote(text));
        }
        if (text.length() > 1 && text.charAt(0) == '0') {
            throw new Invalid(capitalized + " number must not contain leading zeroes " + KubernetesLibrary.quote(text));
        }
        try {
            return Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw new Invalid("strconv.ParseUint: parsing " + KubernetesLibrary.quote(text) + ": "
                    + (text.isEmpty() ? "invalid syntax" : "value out of range"));
        }
    }

    private static boolean only(String s, String allowed) {
        return s.chars().allMatch(c -> allowed.indexOf(c) >= 0);
    }

    @Override
    public int compareTo(Semver o) {
        int c = Long.compareUnsigned(major, o.major);
        c = c != 0 ? c : Long.compareUnsigned(minor, o.minor);
        c = c != 0 ? c : Long.compareUnsigned(patch, o.patch);
        if (c != 0 || pre.isEmpty() && o.pre.isEmpty()) {
            return Integer.signum(c);
        }
        if (pre.isEmpty() || o.pre.isEmpty()) {
            return pre.isEmpty() ? 1 : -1;
        }
        for (int i = 0; i < Math.min(pre.size(), o.pre.size()); i++) {
            int p = comparePre(pre.get(i), o.pre.get(i));
            if (p != 0) {
                return p;
            }
        }
        return Integer.compare(pre.size(), o.pre.size());
    }

    private static int comparePre(String a, String b) {
        boolean numA = only(a, "0123456789");
        boolean numB = only(b, "0123456789");
        if (numA && numB) {
            return Integer.signum(new java.math.BigInteger(a).compareTo(new java.math.BigInteger(b)));
        }
        if (numA != numB) {
            return numA ? -1 : 1;
        }
        return Integer.signum(a.compareTo(b));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Semver s && compareTo(s) == 0;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(major * 31 * 31 + minor * 31 + patch) + pre.hashCode();
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch + (pre.isEmpty() ? "" : "-" + String.join(".", pre));
    }
}
