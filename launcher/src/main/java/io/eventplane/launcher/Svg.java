package io.eventplane.launcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Plain SVG charts for the self-contained load-test report: line charts (also CDFs) and histograms, with axes. */
final class Svg {
    private static final int W = 900;
    private static final int H = 320;
    private static final int LEFT = 70;
    private static final int RIGHT = 170;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;

    record Series(String name, List<double[]> points, String color) {
    }

    private Svg() {
    }

    /** The empirical CDF of {@code values} (x: value, y: fraction at or below). */
    static Series cdf(String name, double[] values, String color) {
        double[] v = values.clone();
        Arrays.sort(v);
        List<double[]> points = new ArrayList<>();
        int step = Math.max(1, v.length / 500);
        for (int i = 0; i < v.length; i += step) {
            points.add(new double[] {v[i], (i + 1.0) / v.length});
        }
        if (v.length > 0) {
            points.add(new double[] {v[v.length - 1], 1.0});
        }
        return new Series(name, points, color);
    }

    static String lines(String title, String xLabel, String yLabel, List<Series> series) {
        double maxX = 1e-9;
        double maxY = 1e-9;
        for (Series s : series) {
            for (double[] p : s.points()) {
                maxX = Math.max(maxX, p[0]);
                maxY = Math.max(maxY, p[1]);
            }
        }
        StringBuilder sb = frame(title, xLabel, yLabel, maxX, maxY);
        int legend = 0;
        for (Series s : series) {
            if (s.points().isEmpty()) {
                continue;
            }
            sb.append("<polyline fill=\"none\" stroke=\"").append(s.color()).append("\" stroke-width=\"1.5\" points=\"");
            for (double[] p : s.points()) {
                sb.append(String.format("%.1f,%.1f ", x(p[0], maxX), y(p[1], maxY)));
            }
            sb.append("\"/>");
            sb.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"3\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", W - RIGHT + 15, TOP + 10 + legend * 16,
                    s.color(), W - RIGHT + 32, TOP + 14 + legend * 16, LoadTestReport.esc(s.name())));
            legend++;
        }
        return sb.append("</svg>").toString();
    }

    static String histogram(String title, String xLabel, double[] values, int bins) {
        if (values == null || values.length == 0) {
            return "<p>" + LoadTestReport.esc(title) + ": no data</p>";
        }
        double max = Arrays.stream(values).max().orElse(1);
        double width = Math.max(1e-9, max / bins);
        double[] counts = new double[bins];
        for (double v : values) {
            counts[(int) Math.min(bins - 1, v / width)]++;
        }
        double maxY = Arrays.stream(counts).max().orElse(1);
        StringBuilder sb = frame(title, xLabel, "pods", max, maxY);
        for (int i = 0; i < bins; i++) {
            double x0 = x(i * width, max);
            double x1 = x((i + 1) * width, max);
            double y0 = y(counts[i], maxY);
            sb.append(String.format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#1f77b4\"/>",
                    x0, y0, Math.max(0.5, x1 - x0 - 1), H - BOTTOM - y0));
        }
        return sb.append("</svg>").toString();
    }

    private static StringBuilder frame(String title, String xLabel, String yLabel, double maxX, double maxY) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\">", W, H));
        sb.append(String.format("<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>", LEFT,
                LoadTestReport.esc(title)));
        sb.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>", LEFT, H - BOTTOM,
                W - RIGHT, H - BOTTOM));
        sb.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>", LEFT, TOP, LEFT,
                H - BOTTOM));
        for (int i = 0; i <= 4; i++) {
            double vx = maxX * i / 4;
            double vy = maxY * i / 4;
            sb.append(String.format("<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>",
                    x(vx, maxX), H - BOTTOM + 14, fmt(vx)));
            sb.append(String.format("<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>",
                    LEFT - 5, y(vy, maxY) + 3, fmt(vy)));
            sb.append(String.format("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", LEFT,
                    y(vy, maxY), W - RIGHT, y(vy, maxY)));
        }
        sb.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>",
                (LEFT + W - RIGHT) / 2, H - 8, LoadTestReport.esc(xLabel)));
        sb.append(String.format("<text x=\"14\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 14 %d)\" "
                + "text-anchor=\"middle\">%s</text>", (TOP + H - BOTTOM) / 2, (TOP + H - BOTTOM) / 2,
                LoadTestReport.esc(yLabel)));
        return sb;
    }

    private static double x(double v, double max) {
        return LEFT + (W - LEFT - RIGHT) * v / max;
    }

    private static double y(double v, double max) {
        return H - BOTTOM - (H - TOP - BOTTOM) * v / max;
    }

    private static String fmt(double v) {
        return v >= 100 ? String.format("%.0f", v) : v >= 1 ? String.format("%.1f", v) : String.format("%.2f", v);
    }
}
