package io.eventplane.controllers.statefulset;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened to a set's pods, in the order the writer appended it: {@code created web-0}, {@code ready web-0},
 * {@code failed web-0}, {@code terminating web-2}, {@code gone web-2}, each pod by name (a replacement is created again
 * under the same name). Recorded after every change the cluster's writer accepts.
 */
final class PodTimeline {
    final List<String> entries = new ArrayList<>();
    private final Map<String, String> state = new HashMap<>();
    private final Map<String, String> uids = new HashMap<>();

    static PodTimeline of(SimulatedCluster cluster, String namePrefix) {
        PodTimeline t = new PodTimeline();
        cluster.invariant(c -> t.observe(c, namePrefix));
        return t;
    }

    private void observe(SimulatedCluster cluster, String prefix) {
        Map<String, String> now = new HashMap<>();
        Map<String, String> nowUids = new HashMap<>();
        for (Pod p : cluster.list(Pod.class)) {
            String name = p.getMetadata().getName();
            if (!name.startsWith(prefix)) {
                continue;
            }
            nowUids.put(name, p.getMetadata().getUid());
            String s = PodStates.isTerminating(p) ? "terminating"
                    : "Failed".equals(PodStates.phase(p)) ? "failed"
                    : PodStates.isReady(p) ? "ready" : "created";
            now.put(name, s);
            String before = state.get(name);
            boolean replaced = before != null && !p.getMetadata().getUid().equals(uids.get(name));
            if (replaced) {
                entries.add("gone " + name);
                before = null;
            }
            if (before == null) {
                entries.add("created " + name);
                if (!s.equals("created")) {
                    entries.add(s + " " + name);
                }
            } else if (!before.equals(s)) {
                entries.add(s + " " + name);
            }
        }
        for (String name : state.keySet()) {
            if (!now.containsKey(name)) {
                entries.add("gone " + name);
            }
        }
        state.clear();
        state.putAll(now);
        uids.clear();
        uids.putAll(nowUids);
    }

    /** The entries that start with one of {@code kinds} ("created", "ready", "terminating", ...). */
    List<String> only(String... kinds) {
        List<String> out = new ArrayList<>();
        for (String e : entries) {
            for (String k : kinds) {
                if (e.startsWith(k + " ")) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    int indexOf(String entry) {
        return entries.indexOf(entry);
    }

    int lastIndexOf(String entry) {
        return entries.lastIndexOf(entry);
    }
}
