package io.eventplane.nodesim;

import io.eventplane.core.codec.Quantity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How much CPU (in cores) or memory (in bytes) a simulated program uses, as a function of the time since it started:
 * what {@code sim.eventplane.io/cpu-usage}, {@code memory-usage}, {@code cpu-load}, {@code memory-load} and the stage
 * file's {@code usage} rules declare (after KWOK's ResourceUsage, whose values may vary in time). The forms:
 *
 * <pre>
 *   250m                         a constant (a Kubernetes quantity)
 *   ramp(100m, 900m, 5m)         from 100m at the start to 900m after 5 minutes, linearly; 900m from then on
 *   sine(300m, 200m, 10m)        300m plus 200m * sin(2 pi t / 10m): between 100m and 500m, every 10 minutes
 *   step(100m, 2m, 800m, 7m, 200m)  100m, 800m from 2 minutes, 200m from 7 minutes (any number of steps)
 * </pre>
 *
 * Durations are Go-style ({@code 90s}, {@code 1m30s}) or plain seconds. A value never goes below 0. Pure.
 */
public sealed interface UsageExpression {

    /** The use {@code sinceStart} after the start, in cores or bytes; never negative. */
    double at(Duration sinceStart);

    /** The first moment (from the start) the use is above {@code limit}, if it ever is. */
    Optional<Duration> firstAbove(double limit);

    /** This use times {@code factor} (a pod's use spread over its containers). */
    UsageExpression scaled(double factor);

    record Constant(double value) implements UsageExpression {
        @Override
        public double at(Duration sinceStart) {
            return Math.max(0, value);
        }

        @Override
        public Optional<Duration> firstAbove(double limit) {
            return value > limit ? Optional.of(Duration.ZERO) : Optional.empty();
        }

        @Override
        public UsageExpression scaled(double factor) {
            return new Constant(value * factor);
        }
    }

    record Ramp(double from, double to, Duration over) implements UsageExpression {
        @Override
        public double at(Duration sinceStart) {
            if (over.isZero() || sinceStart.compareTo(over) >= 0) {
                return Math.max(0, to);
            }
            double f = Math.max(0, (double) sinceStart.toMillis() / over.toMillis());
            return Math.max(0, from + (to - from) * f);
        }

        @Override
        public Optional<Duration> firstAbove(double limit) {
            if (from > limit) {
                return Optional.of(Duration.ZERO);
            }
            if (to <= limit) {
                return Optional.empty();
            }
            // from <= limit < to: the crossing, rounded up to the next millisecond so that the use there is above
            long ms = (long) Math.floor((limit - from) / (to - from) * over.toMillis()) + 1;
            return Optional.of(Duration.ofMillis(Math.min(ms, over.toMillis())));
        }

        @Override
        public UsageExpression scaled(double factor) {
            return new Ramp(from * factor, to * factor, over);
        }
    }

    record Sine(double mean, double amplitude, Duration period) implements UsageExpression {
        @Override
        public double at(Duration sinceStart) {
            double phase = 2 * Math.PI * (sinceStart.toMillis() % period.toMillis()) / period.toMillis();
            return Math.max(0, mean + amplitude * Math.sin(phase));
        }

        @Override
        public Optional<Duration> firstAbove(double limit) {
            double a = Math.abs(amplitude);
            if (mean > limit) {
                return Optional.of(Duration.ZERO);
            }
            if (mean + a <= limit) {
                return Optional.empty();
            }
            // mean + a*sin(x) > limit first at x = asin((limit - mean) / a) (amplitude > 0), or past pi (amplitude < 0)
            double x = Math.asin((limit - mean) / a);
            double first = amplitude > 0 ? x : Math.PI + x;
            long ms = (long) Math.floor(first / (2 * Math.PI) * period.toMillis()) + 1;
            while (at(Duration.ofMillis(ms)) <= limit && ms < period.toMillis()) {
                ms++; // the rounding of sin's argument
            }
            return Optional.of(Duration.ofMillis(ms));
        }

        @Override
        public UsageExpression scaled(double factor) {
            return new Sine(mean * factor, amplitude * factor, period);
        }
    }

    /** {@code first} until the first step, then each step's value from its time on (times in increasing order). */
    record Step(double first, List<Duration> times, List<Double> values) implements UsageExpression {
        @Override
        public double at(Duration sinceStart) {
            double v = first;
            for (int i = 0; i < times.size() && sinceStart.compareTo(times.get(i)) >= 0; i++) {
                v = values.get(i);
            }
            return Math.max(0, v);
        }

        @Override
        public Optional<Duration> firstAbove(double limit) {
            if (first > limit) {
                return Optional.of(Duration.ZERO);
            }
            for (int i = 0; i < times.size(); i++) {
                if (values.get(i) > limit) {
                    return Optional.of(times.get(i));
                }
            }
            return Optional.empty();
        }

        @Override
        public UsageExpression scaled(double factor) {
            return new Step(first * factor, times, values.stream().map(v -> v * factor).toList());
        }
    }

    /** Parses one of the forms above; {@link IllegalArgumentException} with a message that shows the forms. */
    static UsageExpression parse(String text) {
        String t = text == null ? "" : text.trim();
        int open = t.indexOf('(');
        if (open < 0) {
            return new Constant(quantity(t, text));
        }
        if (!t.endsWith(")")) {
            throw invalid(text, "a closing parenthesis is missing");
        }
        String name = t.substring(0, open).trim();
        List<String> args = new ArrayList<>();
        for (String a : t.substring(open + 1, t.length() - 1).split(",")) {
            args.add(a.trim());
        }
        return switch (name) {
            case "ramp" -> {
                arity(text, args, 3);
                yield new Ramp(quantity(args.get(0), text), quantity(args.get(1), text), duration(args.get(2), text));
            }
            case "sine" -> {
                arity(text, args, 3);
                Duration period = duration(args.get(2), text);
                if (period.isZero()) {
                    throw invalid(text, "the period must be longer than 0");
                }
                yield new Sine(quantity(args.get(0), text), quantity(args.get(1), text), period);
            }
            case "step" -> {
                if (args.size() < 3 || args.size() % 2 == 0) {
                    throw invalid(text, "step takes a value, then pairs of a time and a value");
                }
                List<Duration> times = new ArrayList<>();
                List<Double> values = new ArrayList<>();
                for (int i = 1; i < args.size(); i += 2) {
                    Duration at = duration(args.get(i), text);
                    if (!times.isEmpty() && at.compareTo(times.get(times.size() - 1)) <= 0) {
                        throw invalid(text, "the step times must increase");
                    }
                    times.add(at);
                    values.add(quantity(args.get(i + 1), text));
                }
                yield new Step(quantity(args.get(0), text), List.copyOf(times), List.copyOf(values));
            }
            default -> throw invalid(text, "unknown function \"" + name + "\"");
        };
    }

    private static void arity(String text, List<String> args, int n) {
        if (args.size() != n) {
            throw invalid(text, "takes " + n + " arguments, not " + args.size());
        }
    }

    private static double quantity(String s, String text) {
        if (!Quantity.isValid(s)) {
            throw invalid(text, "\"" + s + "\" is not a quantity");
        }
        return Quantity.parse(s).amount().doubleValue();
    }

    private static Duration duration(String s, String text) {
        try {
            return PodBehavior.parseDuration(s);
        } catch (IllegalArgumentException e) {
            throw invalid(text, "\"" + s + "\" is not a duration");
        }
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException("\"" + text + "\" is not a usage (" + why + "); use a quantity (250m), "
                + "ramp(from, to, over), sine(mean, amplitude, period) or step(value, at, value, ...)");
    }
}
