package io.eventplane.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Apicurio Registry server distribution: the {@code apicurio-registry-app:<version>:tar.gz:all} artifact from the
 * local Maven repository, extracted once into {@code ~/.cache/eventplane/apicurio-<version>}.
 *
 * <p>Extraction goes to a private temporary directory that is then renamed into place, so JVMs starting at the same
 * time never see a half-extracted tree; the loser of the race discards its copy.
 */
public final class ApicurioDistribution {

    /** The version testkit depends on (see testkit/pom.xml). */
    public static final String VERSION = "3.3.3";
    /** Apicurio 3.x is built for Java 21. */
    public static final int MINIMUM_JDK = 21;
    // Hook for JDK-17-only machines: 2.6.13.Final of the same artifact runs on 17, but it reads registry.* rather
    // than apicurio.* properties. Supporting it means a second (version, MINIMUM_JDK, property names) value here.

    private static final String RUN_JAR = "quarkus-run.jar";
    private static final Pattern LOCAL_REPOSITORY = Pattern.compile("<localRepository>\\s*([^<]+?)\\s*</localRepository>");

    private final String version;
    private final Path home;

    private ApicurioDistribution(String version, Path home) {
        this.version = version;
        this.home = home;
    }

    /** The default version, extracted if needed. */
    public static ApicurioDistribution ensureExtracted() {
        return ensureExtracted(VERSION);
    }

    public static ApicurioDistribution ensureExtracted(String version) {
        Path target = cacheDir().resolve("apicurio-" + version);
        if (!Files.isRegularFile(target.resolve(RUN_JAR))) {
            extract(tarball(version), target);
        }
        return new ApicurioDistribution(version, target);
    }

    /** An already extracted distribution (a directory holding {@code quarkus-run.jar}). */
    public static ApicurioDistribution at(Path home, String version) {
        if (!Files.isRegularFile(home.resolve(RUN_JAR))) {
            throw new IllegalArgumentException(home + " holds no " + RUN_JAR);
        }
        return new ApicurioDistribution(version, home);
    }

    public String version() {
        return version;
    }

    public Path home() {
        return home;
    }

    public Path runJar() {
        return home.resolve(RUN_JAR);
    }

    /** {@code $XDG_CACHE_HOME/eventplane} or {@code ~/.cache/eventplane}; {@code -Deventplane.cache.dir} wins. */
    public static Path cacheDir() {
        String explicit = System.getProperty("eventplane.cache.dir");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("eventplane");
    }

    /** The artifact in the local Maven repository, honouring {@code -Dmaven.repo.local} and settings.xml. */
    public static Path tarball(String version) {
        Path file = localMavenRepository()
                .resolve("io/apicurio/apicurio-registry-app").resolve(version)
                .resolve("apicurio-registry-app-" + version + "-all.tar.gz");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Apicurio Registry distribution not found at " + file
                    + ". It is a dependency of eventplane-testkit; resolve it with "
                    + "`./mvnw -pl testkit dependency:resolve` (online) first.");
        }
        return file;
    }

    static Path localMavenRepository() {
        String explicit = System.getProperty("maven.repo.local");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        Path m2 = Path.of(System.getProperty("user.home"), ".m2");
        Path settings = m2.resolve("settings.xml");
        if (Files.isRegularFile(settings)) {
            try {
                Matcher matcher = LOCAL_REPOSITORY.matcher(Files.readString(settings, StandardCharsets.UTF_8));
                if (matcher.find()) {
                    return Path.of(matcher.group(1).replace("${user.home}", System.getProperty("user.home")));
                }
            } catch (IOException e) {
                // Fall back to the default location.
            }
        }
        return m2.resolve("repository");
    }

    private static void extract(Path tarball, Path target) {
        Path staging;
        try {
            Files.createDirectories(target.getParent());
            staging = Files.createTempDirectory(target.getParent(), target.getFileName() + ".extracting-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a staging directory next to " + target, e);
        }
        try {
            runTar(tarball, staging);
            makeReadableByAll(staging);
            try {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                // Another JVM finished first; its copy is as good as ours.
                EmbeddedKafka.deleteRecursively(staging);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IllegalStateException("cannot rename " + staging + " to " + target + " atomically", e);
            }
        } catch (IOException e) {
            EmbeddedKafka.deleteRecursively(staging);
            throw new UncheckedIOException("cannot extract " + tarball + " into " + target, e);
        } catch (RuntimeException e) {
            EmbeddedKafka.deleteRecursively(staging);
            throw e;
        }
        if (!Files.isRegularFile(target.resolve(RUN_JAR))) {
            throw new IllegalStateException(target + " exists but holds no " + RUN_JAR + "; delete it and retry");
        }
    }

    /** A temporary directory is private to its owner; the shared cache should not be. */
    private static void makeReadableByAll(Path dir) {
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (UnsupportedOperationException | IOException e) {
            // Not POSIX or not ours to change: the owner can still read it.
        }
    }

    private static void runTar(Path tarball, Path into) throws IOException {
        Path log = into.resolve(".tar.log");
        Process tar = new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", into.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!tar.waitFor(5, TimeUnit.MINUTES)) {
                tar.destroyForcibly();
                throw new IllegalStateException("tar did not finish extracting " + tarball + " within 5 minutes");
            }
        } catch (InterruptedException e) {
            tar.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while extracting " + tarball, e);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        if (tar.exitValue() != 0) {
            throw new IllegalStateException("tar exited with " + tar.exitValue() + " extracting " + tarball + ": " + output);
        }
    }
}
