package io.eventplane.gateway.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Request paths as the API reads them: the router and the authorizer split them the same way. */
public final class Paths {
    private Paths() {
    }

    /** The path's segments, percent-decoded ({@code +} stays a plus in a path). */
    public static List<String> segments(String rawPath) {
        List<String> out = new ArrayList<>();
        for (String s : rawPath.split("/")) {
            if (!s.isEmpty()) {
                out.add(percentDecode(s));
            }
        }
        return out;
    }

    private static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                try {
                    bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                    continue;
                } catch (NumberFormatException e) {
                    throw new ApiException(Statuses.badRequest("invalid escape in path segment \"" + s + "\""));
                }
            }
            bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
