package io.eventplane.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium driven by its ChromeDriver through Selenium, headless, for the console's browser test and
 * benchmark. Nothing is downloaded by Selenium (the driver and browser are given by path, so Selenium Manager never
 * runs); when Chromium is missing, {@link #unavailable()} installs the Debian packages with apt-get, as root or
 * through {@code sudo -n}.
 */
final class HeadlessChromium implements AutoCloseable {
    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    private static String why;
    private static boolean checked;
    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /**
     * Why Chromium cannot be used here (empty when it can). Installs {@code chromium} and {@code chromium-driver}
     * with apt-get when they are missing and this process runs as root or may use {@code sudo} without a password;
     * otherwise says what to install.
     */
    static synchronized Optional<String> unavailable() {
        if (!checked) {
            checked = true;
            why = check();
        }
        return Optional.ofNullable(why);
    }

    private static String check() {
        if (Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER)) {
            return null;
        }
        List<String> asRoot; // apt-get must never wait for an answer
        if (isRoot()) {
            asRoot = List.of("env", "DEBIAN_FRONTEND=noninteractive");
        } else if (run(List.of("sh", "-c", "sudo -n true && echo ok")).trim().equals("ok")) {
            asRoot = List.of("sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive");
        } else {
            return "Chromium is not installed (" + BROWSER + ", " + DRIVER + ") and installing it needs root: "
                    + "sudo apt-get install -y --no-install-recommends chromium chromium-driver";
        }
        List<String> install = concat(asRoot, List.of("apt-get", "install", "-y", "--no-install-recommends",
                "chromium", "chromium-driver"));
        String out = run(install);
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            // a fresh machine (a CI container) may have no package lists yet
            out = run(concat(asRoot, List.of("apt-get", "update"))) + run(install);
        }
        return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER) ? null
                : "installing Chromium with apt-get failed: " + tail(out);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    private static boolean isRoot() {
        return "0".equals(run(List.of("id", "-u")).trim());
    }

    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly();
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e.toString();
        }
    }

    private static String tail(String s) {
        return s.length() <= 600 ? s : "..." + s.substring(s.length() - 600);
    }

    /** A new headless browser with an empty profile and a window of the given size. */
    static HeadlessChromium start(int width, int height) throws IOException {
        unavailable().ifPresent(w -> {
            throw new IllegalStateException(w);
        });
        Path profile = Files.createTempDirectory("eventplane-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        // What Chromium needs on this machine: no sandbox (root, containers), no GPU, and no background traffic to
        // Google's hosts (refused here, many connections at a time).
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + profile,
                "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        // The page gets exactly width x height (a headless window's size includes what would be its frame).
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", java.util.Map.of("width", width, "height", height,
                "deviceScaleFactor", 1, "mobile", false));
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        return new HeadlessChromium(driver, profile);
    }

    ChromeDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> walk = Files.walk(profile)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temporary profile left behind is harmless
            }
        }
    }
}
