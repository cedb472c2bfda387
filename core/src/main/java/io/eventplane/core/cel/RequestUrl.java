package io.eventplane.core.cel;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A URL as Go's net/url reads it, for Kubernetes' url library: {@code url()} accepts what url.ParseRequestURI accepts
 * (an absolute URI or an absolute path; also the format 'uri' of OpenAPI) and keeps the components url.Parse gives.
 * Errors carry Go's wording ({@code parse "https://a:b:c/": invalid port ":c" after host}).
 */
record RequestUrl(String scheme, String opaque, String host, String path, String rawPath, String rawQuery) {

    /** Why a string is not a URL, as Go's *url.Error prints. */
    static final class Invalid extends Exception {
        Invalid(String url, String reason) {
            super("parse " + KubernetesLibrary.quote(url) + ": " + reason);
        }
    }

    private enum Mode { PATH, HOST, USER, QUERY_COMPONENT, FRAGMENT }

    /** ParseRequestURI's check, then Parse's components (which split off a fragment). */
    static RequestUrl parse(String s) throws Invalid {
        parse(s, true);
        int hash = s.indexOf('#');
        return parse(hash < 0 ? s : s.substring(0, hash), false);
    }

    static boolean isValid(String s) {
        try {
            parse(s, true);
            return true;
        } catch (Invalid e) {
            return false;
        }
    }

    private static RequestUrl parse(String raw, boolean viaRequest) throws Invalid {
        for (int i = 0; i < raw.length(); i++) {
            if (raw.charAt(i) < 0x20 || raw.charAt(i) == 0x7f) {
                throw new Invalid(raw, "net/url: invalid control character in URL");
            }
        }
        if (raw.isEmpty() && viaRequest) {
            throw new Invalid(raw, "empty url");
        }
        if (raw.equals("*")) {
            return new RequestUrl("", "", "", "*", "", "");
        }
        String scheme = "";
        String rest = raw;
        schemeScan:
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
                continue;
            }
            if (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
                if (i == 0) {
                    break;
                }
                continue;
            }
            if (c == ':') {
                if (i == 0) {
                    throw new Invalid(raw, "missing protocol scheme");
                }
                scheme = raw.substring(0, i).toLowerCase(java.util.Locale.ROOT);
                rest = raw.substring(i + 1);
            }
            break schemeScan;
        }
        String rawQuery = "";
        if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
            rest = rest.substring(0, rest.length() - 1);
        } else if (rest.indexOf('?') >= 0) {
            rawQuery = rest.substring(rest.indexOf('?') + 1);
            rest = rest.substring(0, rest.indexOf('?'));
        }
        if (!rest.startsWith("/")) {
            if (!scheme.isEmpty()) {
                return new RequestUrl(scheme, rest, "", "", "", rawQuery);
            }
            if (viaRequest) {
                throw new Invalid(raw, "invalid URI for request");
            }
            int slash = rest.indexOf('/');
            if ((slash < 0 ? rest : rest.substring(0, slash)).contains(":")) {
                throw new Invalid(raw, "first path segment in URL cannot contain colon");
            }
        }
        String host = "";
        if ((!scheme.isEmpty() || !viaRequest && !rest.startsWith("///")) && rest.startsWith("//")) {
            String authority = rest.substring(2);
            int slash = authority.indexOf('/');
            rest = slash < 0 ? "" : authority.substring(slash);
            authority = slash < 0 ? authority : authority.substring(0, slash);
            host = authority(raw, authority);
        }
        String path = unescape(raw, rest, Mode.PATH);
        String rawPath = escape(path, Mode.PATH).equals(rest) ? "" : rest;
        return new RequestUrl(scheme, "", host, path, rawPath, rawQuery);
    }

    private static String authority(String raw, String authority) throws Invalid {
        int at = authority.lastIndexOf('@');
        String host = host(raw, at < 0 ? authority : authority.substring(at + 1));
        if (at >= 0) {
            String user = authority.substring(0, at);
            for (int i = 0; i < user.length(); i++) {
                char c = user.charAt(i);
                if (!(isAlphaNum(c) || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0)) {
                    throw new Invalid(raw, "net/url: invalid userinfo");
                }
            }
            unescape(raw, user, Mode.USER);
        }
        return host;
    }

    private static String host(String raw, String host) throws Invalid {
        if (host.startsWith("[")) {
            int close = host.lastIndexOf(']');
            if (close < 0) {
                throw new Invalid(raw, "missing ']' in host");
            }
            String colonPort = host.substring(close + 1);
            if (!validOptionalPort(colonPort)) {
                throw new Invalid(raw, "invalid port " + KubernetesLibrary.quote(colonPort) + " after host");
            }
        } else if (host.lastIndexOf(':') >= 0) {
            String colonPort = host.substring(host.lastIndexOf(':'));
            if (!validOptionalPort(colonPort)) {
                throw new Invalid(raw, "invalid port " + KubernetesLibrary.quote(colonPort) + " after host");
            }
        }
        return unescape(raw, host, Mode.HOST);
    }

    private static boolean validOptionalPort(String port) {
        if (port.isEmpty()) {
            return true;
        }
        if (port.charAt(0) != ':') {
            return false;
        }
        for (int i = 1; i < port.length(); i++) {
            if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Go's unescape: %XX sequences decoded (an invalid one is an error); '+' a space in query components. */
    private static String unescape(String raw, String s, Mode mode) throws Invalid {
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
        for (int i = 0; i < in.length; ) {
            byte b = in[i];
            if (b == '%') {
                if (i + 2 >= in.length || hex(in[i + 1]) < 0 || hex(in[i + 2]) < 0) {
                    String bad = new String(in, i, Math.min(3, in.length - i), StandardCharsets.UTF_8);
                    throw new Invalid(raw, "invalid URL escape " + KubernetesLibrary.quote(bad));
                }
                if (mode == Mode.HOST && hex(in[i + 1]) < 8 && !(in[i + 1] == '2' && in[i + 2] == '5')) {
                    throw new Invalid(raw, "invalid URL escape "
                            + KubernetesLibrary.quote(new String(in, i, 3, StandardCharsets.UTF_8)));
                }
                out.write(hex(in[i + 1]) << 4 | hex(in[i + 2]));
                i += 3;
                continue;
            }
            if (b == '+' && mode == Mode.QUERY_COMPONENT) {
                out.write(' ');
            } else {
                if (mode == Mode.HOST && b >= 0 && shouldEscape((char) b, mode)) {
                    throw new Invalid(raw, "invalid character " + KubernetesLibrary.quote(String.valueOf((char) b))
                            + " in host name");
                }
                out.write(b);
            }
            i++;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String escape(String s, Mode mode) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            if (b < 0 || shouldEscape((char) b, mode)) {
                out.append('%').append(String.format("%02X", b & 0xff));
            } else {
                out.append((char) b);
            }
        }
        return out.toString();
    }

    private static boolean shouldEscape(char c, Mode mode) {
        if (isAlphaNum(c)) {
            return false;
        }
        if (mode == Mode.HOST && "!$&'()*+,;=:[]<>\"".indexOf(c) >= 0) {
            return false;
        }
        if ("-_.~".indexOf(c) >= 0) {
            return false;
        }
        if ("$&+,/:;=?@".indexOf(c) >= 0) {
            return switch (mode) {
                case PATH -> c == '?';
                case USER -> c == '@' || c == '/' || c == '?' || c == ':';
                case QUERY_COMPONENT -> true;
                case FRAGMENT, HOST -> false;
            };
        }
        return !(mode == Mode.FRAGMENT && "!()*".indexOf(c) >= 0);
    }

    private static boolean isAlphaNum(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** The host without its port, IPv6 brackets removed (Go's Hostname). */
    String hostname() {
        String h = host;
        int colon = h.lastIndexOf(':');
        if (colon >= 0 && validOptionalPort(h.substring(colon))) {
            h = h.substring(0, colon);
        }
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    /** The port, empty without one (Go's Port). */
    String port() {
        int colon = host.lastIndexOf(':');
        return colon >= 0 && validOptionalPort(host.substring(colon)) ? host.substring(colon + 1) : "";
    }

    /** The path as it was escaped when valid, else the path escaped (Go's EscapedPath). */
    String escapedPath() {
        if (!rawPath.isEmpty() && validEncoded(rawPath)) {
            try {
                if (unescape(rawPath, rawPath, Mode.PATH).equals(path)) {
                    return rawPath;
                }
            } catch (Invalid e) {
                // fall through to escaping the decoded path
            }
        }
        return path.equals("*") ? "*" : escape(path, Mode.PATH);
    }

    private static boolean validEncoded(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ("!$&'()*+,;=:@[]%".indexOf(c) < 0 && (c >= 0x80 || shouldEscape(c, Mode.PATH))) {
                return false;
            }
        }
        return true;
    }

    /** The query in matrix form, keys and values unescaped; malformed pairs skipped (Go's Query). */
    Map<String, List<String>> query() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&", -1)) {
            if (pair.isEmpty() || pair.contains(";")) {
                continue;
            }
            int eq = pair.indexOf('=');
            try {
                String key = unescape(pair, eq < 0 ? pair : pair.substring(0, eq), Mode.QUERY_COMPONENT);
                String value = eq < 0 ? "" : unescape(pair, pair.substring(eq + 1), Mode.QUERY_COMPONENT);
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
            } catch (Invalid e) {
                // Go's Query() drops a pair it cannot unescape
            }
        }
        return out;
    }
}
