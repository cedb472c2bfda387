package io.eventplane.core.container;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small POSIX-shell subset: commands separated by {@code ;} or newlines, joined by {@code &&} and {@code ||},
 * pipelines with {@code |}; words with single and double quotes, backslash escapes, {@code $NAME},
 * {@code ${NAME}} and {@code $?}. Enough for what people type after {@code sh -c}.
 */
final class ShellScript {
    private ShellScript() {
    }

    /** A pipeline and how it joins the previous one: {@code ;} (always), {@code &&} or {@code ||}. */
    record Step(String join, List<List<Token>> pipeline) {
    }

    /** One word before expansion: its pieces and whether each is quoted (quoted pieces are not expanded by $). */
    record Token(List<Piece> pieces) {
        String expand(Map<String, String> env, int lastStatus) {
            StringBuilder out = new StringBuilder();
            for (Piece p : pieces) {
                out.append(p.single() ? p.text() : substitute(p.text(), env, lastStatus));
            }
            return out.toString();
        }
    }

    record Piece(String text, boolean single) {
    }

    static final class SyntaxError extends RuntimeException {
        SyntaxError(String message) {
            super(message);
        }
    }

    static List<Step> parse(String script) {
        List<Step> steps = new ArrayList<>();
        List<List<Token>> pipeline = new ArrayList<>();
        List<Token> words = new ArrayList<>();
        String join = ";";
        int i = 0;
        int n = script.length();
        while (i <= n) {
            char c = i < n ? script.charAt(i) : '\n';
            if (c == ' ' || c == '\t') {
                i++;
                continue;
            }
            if (c == '#' ) {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            boolean end = i == n;
            if (c == ';' || c == '\n' || c == '&' || c == '|') {
                String op = String.valueOf(c);
                if ((c == '&' || c == '|') && i + 1 < n && script.charAt(i + 1) == c) {
                    op = op + c;
                }
                if (op.equals("&")) {
                    throw new SyntaxError("background jobs are not supported");
                }
                if (!words.isEmpty()) {
                    pipeline.add(words);
                    words = new ArrayList<>();
                } else if (!op.equals(";") && !op.equals("\n") || !pipeline.isEmpty()) {
                    throw new SyntaxError("syntax error: unexpected \"" + op + "\"");
                }
                if (!op.equals("|")) {
                    if (!pipeline.isEmpty()) {
                        steps.add(new Step(join, pipeline));
                        pipeline = new ArrayList<>();
                    }
                    join = op.equals("\n") ? ";" : op;
                }
                i += op.length();
                if (end) {
                    break;
                }
                continue;
            }
            int[] next = {i};
            words.add(word(script, next));
            i = next[0];
        }
        if (!words.isEmpty() || !pipeline.isEmpty() || join.equals("&&") || join.equals("||")) {
            if (!words.isEmpty()) {
                pipeline.add(words);
            }
            if (!pipeline.isEmpty()) {
                steps.add(new Step(join, pipeline));
            } else {
                throw new SyntaxError("syntax error: unexpected end of file");
            }
        }
        return steps;
    }

    private static Token word(String s, int[] at) {
        List<Piece> pieces = new ArrayList<>();
        StringBuilder plain = new StringBuilder();
        int i = at[0];
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|') {
                break;
            }
            if (c == '\'') {
                int close = s.indexOf('\'', i + 1);
                if (close < 0) {
                    throw new SyntaxError("syntax error: unterminated quoted string");
                }
                flush(plain, pieces);
                pieces.add(new Piece(s.substring(i + 1, close), true));
                i = close + 1;
            } else if (c == '"') {
                StringBuilder quoted = new StringBuilder();
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != '"') {
                    if (s.charAt(j) == '\\' && j + 1 < s.length() && "\"\\$`".indexOf(s.charAt(j + 1)) >= 0) {
                        quoted.append(s.charAt(j + 1) == '$' ? "\\$" : String.valueOf(s.charAt(j + 1)));
                        j += 2;
                    } else {
                        quoted.append(s.charAt(j++));
                    }
                }
                if (j >= s.length()) {
                    throw new SyntaxError("syntax error: unterminated quoted string");
                }
                flush(plain, pieces);
                pieces.add(new Piece(quoted.toString(), false));
                i = j + 1;
            } else if (c == '\\' && i + 1 < s.length()) {
                plain.append(s.charAt(i + 1) == '$' ? "\\$" : String.valueOf(s.charAt(i + 1)));
                i += 2;
            } else {
                plain.append(c);
                i++;
            }
        }
        flush(plain, pieces);
        at[0] = i;
        return new Token(pieces);
    }

    private static void flush(StringBuilder plain, List<Piece> pieces) {
        if (plain.length() > 0) {
            pieces.add(new Piece(plain.toString(), false));
            plain.setLength(0);
        }
    }

    /** {@code $NAME}, {@code ${NAME}} and {@code $?} replaced; {@code \$} is a literal dollar. */
    static String substitute(String text, Map<String, String> env, int lastStatus) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '$') {
                out.append('$');
                i += 2;
            } else if (c == '$' && i + 1 < text.length()) {
                char next = text.charAt(i + 1);
                if (next == '?') {
                    out.append(lastStatus);
                    i += 2;
                } else if (next == '{') {
                    int close = text.indexOf('}', i);
                    String name = close < 0 ? "" : text.substring(i + 2, close);
                    out.append(env.getOrDefault(name, ""));
                    i = close < 0 ? text.length() : close + 1;
                } else if (Character.isLetter(next) || next == '_') {
                    int j = i + 1;
                    while (j < text.length() && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
                        j++;
                    }
                    out.append(env.getOrDefault(text.substring(i + 1, j), ""));
                    i = j;
                } else {
                    out.append(c);
                    i++;
                }
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
