package io.eventplane.launcher;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console as a browser sees it, for tests and the benchmark: open a view and wait for its first paint with data
 * (the console marks it: {@code window.__epPaints}), read what is on screen, move the time slider, take screenshots.
 */
final class ConsolePage {
    static final Duration WAIT = Duration.ofSeconds(60);
    private final ChromeDriver driver;
    private final String server;

    ConsolePage(ChromeDriver driver, String server) {
        this.driver = driver;
        this.server = server;
    }

    ChromeDriver driver() {
        return driver;
    }

    /**
     * Loads the console afresh at {@code hash} (a new document, as a user opening a link) and waits until {@code view}
     * has painted its data; returns the milliseconds from the start of the navigation to that paint.
     */
    double open(String hash, String view) {
        driver.get("about:blank");
        driver.get(server + "/ui/" + hash);
        double ms = awaitPainted(view);
        if (ms > 2000) {
            System.out.println("slow first paint of " + hash + ": " + ms + " ms; requests: " + driver.executeScript(
                    "return performance.getEntriesByType('resource').map(r => r.name.replace(location.origin, '')"
                            + " + ' @' + Math.round(r.startTime) + ' +' + Math.round(r.duration)).join('\\n')"));
        }
        return ms;
    }

    /** Waits until {@code view} has painted with data in this document; its milliseconds since navigation start. */
    double awaitPainted(String view) {
        await(view + " painted", () -> painted(view) != null);
        return painted(view);
    }

    private Double painted(String view) {
        Object ms = driver.executeScript("const p = (window.__epPaints || []).find(p => p.view === arguments[0]);"
                + " return p ? p.sinceLoad : null;", view);
        return ms == null ? null : ((Number) ms).doubleValue();
    }

    /** Waits until the element's text contains {@code text}; returns the whole text. */
    String awaitText(By by, String text) {
        String[] last = {""};
        try {
            await("\"" + text + "\" in " + by, () -> {
                List<WebElement> found = driver.findElements(by);
                last[0] = found.isEmpty() ? "(no such element)" : found.get(0).getText();
                return last[0].contains(text);
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; it shows: " + last[0] + "\n" + diagnose(), e);
        }
        return last[0];
    }

    /** What the page shows and where it is, plus a screenshot (target/console-screenshots/failed-*.png). */
    String diagnose() {
        try {
            Path dir = Path.of("target", "console-screenshots");
            Files.createDirectories(dir);
            Path file = dir.resolve("failed-" + System.currentTimeMillis() + ".png");
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            Object body = driver.executeScript("return document.body.innerText.slice(0, 3000)");
            return "at " + driver.getCurrentUrl() + " (screenshot " + file + "):\n" + body;
        } catch (IOException | WebDriverException e) {
            return "(no diagnosis: " + e + ")";
        }
    }

    String text(By by) {
        return driver.findElement(by).getText();
    }

    boolean visible(By by) {
        List<WebElement> found = driver.findElements(by);
        return !found.isEmpty() && found.get(0).isDisplayed();
    }

    /** The text of the row of table {@code tableId} that mentions {@code name}, or empty. */
    String row(String tableId, String name) {
        for (WebElement r : driver.findElements(By.cssSelector("#" + tableId + " .vbody .vrow"))) {
            String t = r.getText();
            if (t.contains(name)) {
                return t;
            }
        }
        return "";
    }

    void await(String what, BooleanSupplier condition) {
        try {
            new WebDriverWait(driver, WAIT, Duration.ofMillis(100)).ignoring(WebDriverException.class)
                    .until(d -> condition.getAsBoolean());
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("timed out after " + WAIT.toSeconds() + " s waiting for " + what);
        }
        // (callers that read text add diagnose() to the message)
    }

    /** Clicks the time slider where {@code moment} lies between its ends (the thumb jumps there, as for a user). */
    void moveSlider(Instant moment) {
        WebElement slider = driver.findElement(By.id("time-slider"));
        double min = Double.parseDouble(slider.getAttribute("min"));
        double max = Double.parseDouble(slider.getAttribute("max"));
        double fraction = (moment.toEpochMilli() - min) / (max - min);
        Rectangle r = slider.getRect();
        int thumb = 16; // Chromium's range thumb: its centre travels from thumb/2 to width - thumb/2
        double x = thumb / 2.0 + fraction * (r.getWidth() - thumb);
        new Actions(driver).moveToElement(slider, (int) Math.round(x - r.getWidth() / 2.0), 0).click().perform();
    }

    /**
     * Scrolls table {@code tableId} to the middle of its rows and starts watching, frame by frame, for the rows there
     * to be filled (see {@link #rowsFilledAfterScroll}); returns the row index now at the top.
     */
    long scrollToMiddle(String tableId) {
        Object row = driver.executeScript("const b = document.querySelector('#' + arguments[0] + ' .vbody');"
                + " b.scrollTop = b.scrollHeight / 2; const at = performance.now(), top = Math.floor(b.scrollTop / 28);"
                + " window.__scrolledAt = at; window.__filledAt = 0;"
                // the rows of before the scroll do not count: the list re-renders on the scroll event, a moment later
                + " const check = () => { const rows = [...b.querySelectorAll('.vrow')];"
                + "   if (rows.some(r => Math.abs(r.dataset.index - top) < 50)"
                + "       && rows.every(r => !r.classList.contains('loading'))) { window.__filledAt = performance.now(); }"
                + "   else { requestAnimationFrame(check); } };"
                + " requestAnimationFrame(check); return top;", tableId);
        return ((Number) row).longValue();
    }

    /** Milliseconds from the last {@link #scrollToMiddle} until the rows in view are rendered with their data. */
    double rowsFilledAfterScroll(String tableId) {
        await("rows in view of " + tableId + " loaded", () -> Boolean.TRUE.equals(
                driver.executeScript("return window.__filledAt > 0")));
        return ((Number) driver.executeScript("return window.__filledAt - window.__scrolledAt")).doubleValue();
    }

    /** The page's JavaScript heap in MiB (Chromium's performance.memory). */
    double jsHeapMiB() {
        Object bytes = driver.executeScript("return performance.memory ? performance.memory.usedJSHeapSize : 0");
        return ((Number) bytes).doubleValue() / (1 << 20);
    }

    /** A parameter of the console's route (after the #). */
    String param(String name) {
        String url = driver.getCurrentUrl();
        int q = url.indexOf('?', url.indexOf('#'));
        if (q < 0) {
            return null;
        }
        for (String kv : url.substring(q + 1).split("&")) {
            String[] p = kv.split("=", 2);
            if (p[0].equals(name)) {
                return p.length > 1 ? URLDecoder.decode(p[1], StandardCharsets.UTF_8) : "";
            }
        }
        return null;
    }

    /** Saves what the browser shows as target/console-screenshots/NAME.png, and as docs/console/NAME.png with -Dconsole.docs=true. */
    void screenshot(String name) throws IOException {
        byte[] png = driver.getScreenshotAs(OutputType.BYTES);
        Path dir = Path.of("target", "console-screenshots");
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".png"), png);
        if (Boolean.getBoolean("console.docs")) {
            Path docs = Path.of("..", "docs", "console");
            Files.createDirectories(docs);
            Files.write(docs.resolve(name + ".png"), png);
        }
    }
}
