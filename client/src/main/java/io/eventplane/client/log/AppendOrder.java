package io.eventplane.client.log;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One order over the records of several partitions for folds that look across objects (a ReplicaSet and its pods,
 * a scheduler's binding and the nodes it chose from): each partition keeps its own order, and across partitions the
 * partition heads are taken by record time. A record's time is its command's send time; whoever reacts to a change
 * sends after that change (and everything before it on its partition) was decided, so an effect never comes before
 * its cause. With one partition it is the log's order.
 */
public final class AppendOrder {
    private AppendOrder() {
    }

    public static <K, V> List<ConsumerRecord<K, V>> merge(List<ConsumerRecord<K, V>> records) {
        Map<Integer, List<ConsumerRecord<K, V>>> byPartition = new TreeMap<>();
        for (ConsumerRecord<K, V> r : records) {
            byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r);
        }
        if (byPartition.size() <= 1) {
            return records;
        }
        // heads: {partition list index, position}
        List<List<ConsumerRecord<K, V>>> lists = new ArrayList<>(byPartition.values());
        PriorityQueue<int[]> heads = new PriorityQueue<>((a, b) -> {
            int byTime = Long.compare(lists.get(a[0]).get(a[1]).timestamp(), lists.get(b[0]).get(b[1]).timestamp());
            return byTime != 0 ? byTime : Integer.compare(a[0], b[0]);
        });
        for (int i = 0; i < lists.size(); i++) {
            heads.add(new int[] {i, 0});
        }
        List<ConsumerRecord<K, V>> out = new ArrayList<>(records.size());
        while (!heads.isEmpty()) {
            int[] h = heads.poll();
            List<ConsumerRecord<K, V>> list = lists.get(h[0]);
            out.add(list.get(h[1]));
            if (h[1] + 1 < list.size()) {
                heads.add(new int[] {h[0], h[1] + 1});
            }
        }
        return out;
    }
}
