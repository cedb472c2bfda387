package io.eventplane.controllers.job;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A set of completion indexes as ordered, non-adjacent intervals, and its text form {@code "1,3-5,7"}
 * ({@code status.completedIndexes}, {@code status.failedIndexes}, a success policy's {@code succeededIndexes}; JOB-X01).
 * Two neighbours are written {@code "3,4"}, three or more {@code "3-5"}, as Kubernetes does. Immutable.
 */
final class OrderedIntervals {
    record Interval(int first, int last) {
    }

    static final OrderedIntervals EMPTY = new OrderedIntervals(List.of());

    private final List<Interval> intervals;

    private OrderedIntervals(List<Interval> intervals) {
        this.intervals = List.copyOf(intervals);
    }

    List<Interval> intervals() {
        return intervals;
    }

    /**
     * The indexes a text names below {@code completions}: intervals past it are dropped, one that reaches past it is
     * cut; a part that is not a number is skipped (upstream logs it and goes on).
     */
    static OrderedIntervals parse(String text, int completions) {
        if (text == null || text.isEmpty()) {
            return EMPTY;
        }
        List<Interval> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] limits = part.split("-", -1);
            int first;
            int last;
            try {
                first = Integer.parseInt(limits[0].trim());
                if (first >= completions) {
                    break;
                }
                last = limits.length > 1 ? Math.min(Integer.parseInt(limits[1].trim()), completions - 1) : first;
            } catch (NumberFormatException e) {
                continue;
            }
            if (!out.isEmpty() && out.get(out.size() - 1).last() == first - 1) {
                out.set(out.size() - 1, new Interval(out.get(out.size() - 1).first(), last));
            } else {
                out.add(new Interval(first, last));
            }
        }
        return new OrderedIntervals(out);
    }

    /** These intervals with the indexes {@code sorted} (ascending) added. */
    OrderedIntervals withOrderedIndexes(Collection<Integer> sorted) {
        List<Interval> added = new ArrayList<>();
        for (int i : sorted) {
            added.add(new Interval(i, i));
        }
        return merge(new OrderedIntervals(added));
    }

    /** The union of both. */
    OrderedIntervals merge(OrderedIntervals other) {
        List<Interval> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        List<Interval> a = intervals;
        List<Interval> b = other.intervals;
        while (i < a.size() || j < b.size()) {
            Interval next;
            if (j >= b.size() || (i < a.size() && a.get(i).first() < b.get(j).first())) {
                next = a.get(i++);
            } else {
                next = b.get(j++);
            }
            Interval last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last == null || next.first() > last.last() + 1) {
                out.add(next);
            } else if (last.last() < next.last()) {
                out.set(out.size() - 1, new Interval(last.first(), next.last()));
            }
        }
        return new OrderedIntervals(out);
    }

    int total() {
        int n = 0;
        for (Interval v : intervals) {
            n += v.last() - v.first() + 1;
        }
        return n;
    }

    boolean has(int index) {
        int lo = 0;
        int hi = intervals.size();
        while (hi > lo) {
            int mid = (lo + hi) >>> 1;
            if (intervals.get(mid).last() >= index) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return hi < intervals.size() && intervals.get(hi).first() <= index;
    }

    boolean isEmpty() {
        return intervals.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (Interval v : intervals) {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(v.first());
            if (v.last() > v.first()) {
                out.append(v.last() == v.first() + 1 ? ',' : '-').append(v.last());
            }
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OrderedIntervals other && other.intervals.equals(intervals);
    }

    @Override
    public int hashCode() {
        return intervals.hashCode();
    }
}
