package io.eventplane.launcher;

import java.util.Arrays;

/** Percentiles of a sample of durations in milliseconds, nearest-rank, as ClusterLoader2 reports them. */
record Percentiles(int count, double p50, double p90, double p99, double max, double mean) {
    static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0, 0);

    static Percentiles of(double[] values) {
        if (values.length == 0) {
            return EMPTY;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        double sum = 0;
        for (double x : v) {
            sum += x;
        }
        return new Percentiles(v.length, rank(v, 50), rank(v, 90), rank(v, 99), v[v.length - 1], sum / v.length);
    }

    static double rank(double[] sorted, double p) {
        return sorted[rankIndex(sorted.length, p)];
    }

    /** The index of the p-th percentile in a sorted sample of n, nearest-rank. */
    static int rankIndex(int n, double p) {
        int i = (int) Math.ceil(p / 100.0 * n) - 1;
        return Math.max(0, Math.min(n - 1, i));
    }
}
