package io.eventplane.gateway.auth.authn;

import io.eventplane.gateway.auth.UserInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Static bearer tokens, kube-apiserver's {@code --token-auth-file}: a CSV of {@code token,user,uid,"group1,group2"}
 * (groups optional), read once at start.
 */
public final class TokenFile {
    private final Map<String, UserInfo> users;

    private TokenFile(Map<String, UserInfo> users) {
        this.users = users;
    }

    public static TokenFile empty() {
        return new TokenFile(Map.of());
    }

    public static TokenFile read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the token file " + file, e);
        }
    }

    static TokenFile parse(String csv) {
        Map<String, UserInfo> users = new HashMap<>();
        int n = 0;
        for (String line : csv.split("\r?\n")) {
            n++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            List<String> f = fields(line);
            if (f.size() < 3) {
                throw new IllegalArgumentException("token file: line " + n + ": wrong number of fields: " + f.size()
                        + " (at least 3: token,user,uid)");
            }
            List<String> groups = new ArrayList<>();
            if (f.size() > 3) {
                for (String g : f.get(3).split(",")) {
                    if (!g.isBlank()) {
                        groups.add(g.trim());
                    }
                }
            }
            groups.add(UserInfo.AUTHENTICATED);
            users.put(f.get(0), new UserInfo(f.get(1), f.get(2), groups, Map.of()));
        }
        return new TokenFile(Map.copyOf(users));
    }

    /** The token's user, or empty when the file does not list it. */
    public Optional<UserInfo> authenticate(String token) {
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        for (var e : users.entrySet()) {
            // constant time per comparison, so a guess learns nothing from how long a mismatch took
            if (MessageDigest.isEqual(given, e.getKey().getBytes(StandardCharsets.UTF_8))) {
                return Optional.of(e.getValue());
            }
        }
        return Optional.empty();
    }

    /** The fields of one CSV line: commas separate, double quotes group (a quoted field may hold commas). */
    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ',' && !quoted) {
                out.add(cur.toString().trim());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString().trim());
        return out;
    }
}
