package io.eventplane.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds an installed JDK of at least a given feature version, for child processes that need a newer Java than the
 * one running us (Apicurio Registry 3.x needs 21+, the project runs on 17).
 */
public final class JdkLocator {

    /** Where JDKs are usually installed, scanned after {@code JAVA_HOME} and the running JVM. */
    private static final List<Path> INSTALL_ROOTS = List.of(
            Path.of("/usr/lib/jvm"),
            Path.of("/usr/java"),
            Path.of("/opt/java"),
            Path.of(System.getProperty("user.home"), ".sdkman", "candidates", "java"),
            Path.of(System.getProperty("user.home"), ".jdks"));

    private JdkLocator() {
    }

    /** An installed JDK: its home and feature version (17, 21, 25, ...). */
    public record Jdk(Path home, int featureVersion) {
        public Path javaExecutable() {
            return home.resolve("bin").resolve("java");
        }
    }

    /**
     * The newest JDK of at least {@code minimumFeatureVersion}, preferring {@code JAVA_HOME} and then the running JVM
     * when they qualify.
     */
    public static Optional<Jdk> find(int minimumFeatureVersion) {
        return candidates().stream()
                .map(JdkLocator::inspect)
                .flatMap(Optional::stream)
                .filter(jdk -> jdk.featureVersion() >= minimumFeatureVersion)
                .findFirst();
    }

    /** The JDK at {@code home}, if it is one. */
    public static Optional<Jdk> inspect(Path home) {
        if (!Files.isExecutable(home.resolve("bin").resolve("java"))) {
            return Optional.empty();
        }
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(release)) {
            properties.load(in);
        } catch (IOException e) {
            return Optional.empty();
        }
        String version = properties.getProperty("JAVA_VERSION", "").replace("\"", "").trim();
        return parseFeatureVersion(version).map(feature -> new Jdk(home.toAbsolutePath().normalize(), feature));
    }

    /** {@code "25.0.1"} gives 25, {@code "1.8.0_402"} gives 8. */
    static Optional<Integer> parseFeatureVersion(String version) {
        String[] parts = version.split("[._+-]");
        try {
            int first = Integer.parseInt(parts[0]);
            return Optional.of(first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** A human-readable list of the places {@link #find} looks, for error messages. */
    public static String searchedPlaces() {
        return "JAVA_HOME (" + System.getenv("JAVA_HOME") + "), this JVM (" + System.getProperty("java.home")
                + ", Java " + Runtime.version().feature() + "), " + INSTALL_ROOTS;
    }

    private static List<Path> candidates() {
        Set<Path> ordered = new LinkedHashSet<>();
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isBlank()) {
            ordered.add(Path.of(javaHome));
        }
        ordered.add(Path.of(System.getProperty("java.home")));
        List<Jdk> installed = new ArrayList<>();
        for (Path root : INSTALL_ROOTS) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> children = Files.list(root)) {
                children.map(JdkLocator::inspect).flatMap(Optional::stream).forEach(installed::add);
            } catch (IOException e) {
                // An unreadable directory simply offers no candidate.
            }
        }
        installed.stream()
                .sorted(Comparator.comparingInt(Jdk::featureVersion).reversed())
                .forEach(jdk -> ordered.add(jdk.home()));
        return new ArrayList<>(ordered);
    }
}
