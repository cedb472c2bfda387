package io.eventplane.core.container;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The built-in shell of a simulated container (busybox-like answers): {@code sh -c} scripts (see
 * {@link ShellScript}) and the programs {@code echo}, {@code env}/{@code printenv}, {@code hostname}, {@code cat},
 * {@code ls}, {@code sleep}, {@code exit}, {@code true}/{@code false}, {@code pwd}, {@code id}, {@code whoami},
 * {@code ps}, {@code base64}, {@code tar cf -}; a command the pod declares ({@link ExecResponse}) answers as declared;
 * any other is {@code sh: <cmd>: not found}, exit 127, as a shell answers.
 */
public final class Shell {
    public static final int NOT_FOUND = 127;
    private final ContainerEnvironment environment;
    private final List<ExecResponse> responses;

    public Shell(ContainerEnvironment environment, List<ExecResponse> responses) {
        this.environment = environment;
        this.responses = responses;
    }

    /** Runs one command line (what {@code exec} asks for) and returns its exit code. */
    public int run(List<String> argv, ShellIo io) throws IOException, InterruptedException {
        try {
            return command(argv, io, 0);
        } catch (Exit e) {
            return e.code;
        }
    }

    /** {@code exit} unwinds the script that runs it. */
    private static final class Exit extends RuntimeException {
        final int code;

        Exit(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }

    int script(String text, ShellIo io) throws IOException, InterruptedException {
        List<ShellScript.Step> steps;
        try {
            steps = ShellScript.parse(text);
        } catch (ShellScript.SyntaxError e) {
            io.err(line("sh: " + e.getMessage()));
            return 2;
        }
        int status = 0;
        for (ShellScript.Step step : steps) {
            if (step.join().equals("&&") && status != 0 || step.join().equals("||") && status == 0) {
                continue;
            }
            status = pipeline(step.pipeline(), io, status);
        }
        return status;
    }

    private int pipeline(List<List<ShellScript.Token>> commands, ShellIo io, int lastStatus)
            throws IOException, InterruptedException {
        InputStream in = io.stdin();
        int status = 0;
        for (int i = 0; i < commands.size(); i++) {
            List<String> argv = new ArrayList<>();
            for (ShellScript.Token t : commands.get(i)) {
                argv.add(t.expand(environment.env(), lastStatus));
            }
            boolean last = i == commands.size() - 1;
            if (last) {
                status = command(argv, with(io, in), lastStatus);
            } else {
                ByteArrayOutputStream piped = new ByteArrayOutputStream();
                status = command(argv, capture(io, in, piped), lastStatus);
                in = new ByteArrayInputStream(piped.toByteArray());
            }
        }
        return status;
    }

    private int command(List<String> argv, ShellIo io, int lastStatus) throws IOException, InterruptedException {
        if (argv.isEmpty()) {
            return 0;
        }
        for (ExecResponse r : responses) {
            if (r.matches(argv)) {
                io.out(r.stdout().getBytes(StandardCharsets.UTF_8));
                io.err(r.stderr().getBytes(StandardCharsets.UTF_8));
                return r.exitCode();
            }
        }
        String program = argv.get(0);
        String name = program.substring(program.lastIndexOf('/') + 1);
        List<String> args = argv.subList(1, argv.size());
        return switch (name) {
            case "sh", "bash", "ash", "dash" -> shell(args, io);
            case "echo" -> echo(args, io);
            case "env", "printenv" -> env(args, io);
            case "hostname" -> print(io, environment.hostname());
            case "cat" -> cat(args, io);
            case "ls" -> ls(args, io);
            case "sleep" -> sleep(args, io);
            case "exit" -> throw new Exit(args.isEmpty() ? lastStatus : parseExit(args.get(0)));
            case "true", ":", "cd" -> 0;
            case "false" -> 1;
            case "pwd" -> print(io, "/");
            case "whoami" -> print(io, "root");
            case "id" -> print(io, "uid=0(root) gid=0(root) groups=0(root)");
            case "ps" -> ps(io);
            case "base64" -> base64(io);
            case "tar" -> tar(args, io);
            default -> {
                io.err(line("sh: " + program + ": not found"));
                yield NOT_FOUND;
            }
        };
    }

    private int shell(List<String> args, ShellIo io) throws IOException, InterruptedException {
        if (!args.isEmpty() && args.get(0).equals("-c")) {
            if (args.size() < 2) {
                io.err(line("sh: -c requires an argument"));
                return 2;
            }
            try {
                return script(args.get(1), io);
            } catch (Exit e) {
                return e.code;
            }
        }
        // No script: read commands from stdin, line by line, as an interactive shell without a prompt does.
        int status = 0;
        StringBuilder current = new StringBuilder();
        InputStream in = io.stdin();
        int b;
        try {
            while ((b = in.read()) >= 0) {
                if (b == '\n' || b == '\r') {
                    status = script(current.toString(), io);
                    current.setLength(0);
                } else {
                    current.append((char) b);
                }
            }
            if (current.length() > 0) {
                status = script(current.toString(), io);
            }
        } catch (Exit e) {
            return e.code;
        }
        return status;
    }

    private int echo(List<String> args, ShellIo io) throws IOException {
        boolean newline = true;
        List<String> words = args;
        if (!words.isEmpty() && words.get(0).equals("-n")) {
            newline = false;
            words = words.subList(1, words.size());
        }
        io.out((String.join(" ", words) + (newline ? "\n" : "")).getBytes(StandardCharsets.UTF_8));
        return 0;
    }

    private int env(List<String> args, ShellIo io) throws IOException {
        Map<String, String> env = environment.env();
        if (!args.isEmpty()) {
            String value = env.get(args.get(0));
            return value == null ? 1 : print(io, value);
        }
        StringBuilder out = new StringBuilder();
        env.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        io.out(out.toString().getBytes(StandardCharsets.UTF_8));
        return 0;
    }

    private int cat(List<String> args, ShellIo io) throws IOException {
        if (args.isEmpty() || args.equals(List.of("-"))) {
            InputStream in = io.stdin();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (n > 0) {
                    io.out(java.util.Arrays.copyOf(buffer, n));
                }
            }
            return 0;
        }
        int status = 0;
        for (String path : args) {
            String p = normalize(path);
            byte[] content = environment.files().get(p);
            if (content != null) {
                io.out(content);
            } else if (environment.isDirectory(p)) {
                io.err(line("cat: read error: Is a directory"));
                status = 1;
            } else {
                io.err(line("cat: can't open '" + path + "': No such file or directory"));
                status = 1;
            }
        }
        return status;
    }

    private int ls(List<String> args, ShellIo io) throws IOException {
        boolean all = false;
        List<String> paths = new ArrayList<>();
        for (String a : args) {
            if (a.startsWith("-") && a.length() > 1) {
                all |= a.contains("a");
            } else {
                paths.add(a);
            }
        }
        if (paths.isEmpty()) {
            paths.add("/");
        }
        int status = 0;
        StringBuilder out = new StringBuilder();
        for (String path : paths) {
            String p = normalize(path);
            if (environment.files().containsKey(p)) {
                out.append(path).append('\n');
            } else if (environment.isDirectory(p)) {
                if (paths.size() > 1) {
                    out.append(path).append(":\n");
                }
                if (all) {
                    out.append(".\n..\n");
                }
                children(p).forEach(c -> out.append(c).append('\n'));
            } else {
                io.err(line("ls: " + path + ": No such file or directory"));
                status = 1;
            }
        }
        io.out(out.toString().getBytes(StandardCharsets.UTF_8));
        return status;
    }

    private TreeSet<String> children(String dir) {
        String prefix = dir.equals("/") ? "/" : dir + "/";
        TreeSet<String> names = new TreeSet<>();
        for (String p : environment.files().keySet()) {
            child(p, prefix).ifPresent(names::add);
        }
        for (String p : environment.directories()) {
            child(p, prefix).ifPresent(names::add);
        }
        return names;
    }

    private static java.util.Optional<String> child(String path, String prefix) {
        if (!path.startsWith(prefix) || path.length() == prefix.length()) {
            return java.util.Optional.empty();
        }
        String rest = path.substring(prefix.length());
        int slash = rest.indexOf('/');
        return java.util.Optional.of(slash < 0 ? rest : rest.substring(0, slash));
    }

    private int sleep(List<String> args, ShellIo io) throws IOException, InterruptedException {
        if (args.isEmpty()) {
            io.err(line("sleep: missing operand"));
            return 1;
        }
        String a = args.get(0);
        if (a.equals("infinity")) {
            io.sleep(Duration.ofDays(36500));
            return 0;
        }
        try {
            double seconds = Double.parseDouble(a.endsWith("s") ? a.substring(0, a.length() - 1) : a);
            io.sleep(Duration.ofMillis((long) (seconds * 1000)));
            return 0;
        } catch (NumberFormatException e) {
            io.err(line("sleep: invalid number '" + a + "'"));
            return 1;
        }
    }

    private int ps(ShellIo io) throws IOException {
        StringBuilder out = new StringBuilder("PID   USER     TIME  COMMAND\n");
        int pid = 1;
        for (String p : environment.processes()) {
            out.append(String.format("%5d root      0:00 %s%n", pid++, p));
        }
        io.out(out.toString().getBytes(StandardCharsets.UTF_8));
        return 0;
    }

    private int base64(ShellIo io) throws IOException {
        byte[] input = io.stdin().readAllBytes();
        String encoded = Base64.getMimeEncoder(76, new byte[] {'\n'}).encodeToString(input);
        return print(io, encoded);
    }

    /** {@code tar c[v]f - [-C dir] path...}: the named files and directories, leading slashes removed. */
    private int tar(List<String> args, ShellIo io) throws IOException {
        if (args.isEmpty() || !args.get(0).replace("-", "").startsWith("c")) {
            io.err(line("tar: only 'tar cf - PATH...' is simulated"));
            return 1;
        }
        String base = "";
        List<String> paths = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-C") && i + 1 < args.size()) {
                base = normalize(args.get(++i));
            } else if (!a.equals("-") && !a.equals("--")) {
                paths.add(a);
            }
        }
        TarArchive archive = new TarArchive();
        int status = 0;
        boolean warned = false;
        for (String path : paths) {
            String p = path.startsWith("/") ? normalize(path) : normalize((base.isEmpty() ? "" : base) + "/" + path);
            String member = path.startsWith("/") ? path.replaceFirst("^/+", "") : path;
            if (path.startsWith("/") && !warned) {
                io.err(line("tar: removing leading '/' from member names"));
                warned = true;
            }
            if (environment.files().containsKey(p)) {
                archive.file(member, environment.files().get(p));
            } else if (environment.isDirectory(p)) {
                archive.directory(member);
                String prefix = p.equals("/") ? "/" : p + "/";
                for (String d : environment.directories()) {
                    if (d.startsWith(prefix)) {
                        archive.directory(member + "/" + d.substring(prefix.length()));
                    }
                }
                for (var f : environment.files().entrySet()) {
                    if (f.getKey().startsWith(prefix)) {
                        archive.file(member + "/" + f.getKey().substring(prefix.length()), f.getValue());
                    }
                }
            } else {
                io.err(line("tar: " + path + ": No such file or directory"));
                status = 1;
            }
        }
        io.out(archive.finish());
        return status;
    }

    private static int print(ShellIo io, String text) throws IOException {
        io.out(line(text));
        return 0;
    }

    private static byte[] line(String text) {
        return (text + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static int parseExit(String text) {
        try {
            return Integer.parseInt(text) & 0xff;
        } catch (NumberFormatException e) {
            return 2;
        }
    }

    /** An absolute path without {@code .}, {@code ..}, repeated or trailing slashes (the working directory is /). */
    static String normalize(String path) {
        List<String> parts = new ArrayList<>();
        for (String s : path.split("/")) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                if (!parts.isEmpty()) {
                    parts.remove(parts.size() - 1);
                }
            } else {
                parts.add(s);
            }
        }
        return "/" + String.join("/", parts);
    }

    private static ShellIo with(ShellIo io, InputStream in) {
        return in == io.stdin() ? io : capture(io, in, null);
    }

    /** {@code io} reading {@code in}, its stdout into {@code piped} (null: unchanged). */
    private static ShellIo capture(ShellIo io, InputStream in, ByteArrayOutputStream piped) {
        return new ShellIo() {
            @Override
            public InputStream stdin() {
                return in;
            }

            @Override
            public void out(byte[] bytes) throws IOException {
                if (piped != null) {
                    piped.writeBytes(bytes);
                } else {
                    io.out(bytes);
                }
            }

            @Override
            public void err(byte[] bytes) throws IOException {
                io.err(bytes);
            }

            @Override
            public void sleep(Duration duration) throws InterruptedException {
                io.sleep(duration);
            }
        };
    }
}
