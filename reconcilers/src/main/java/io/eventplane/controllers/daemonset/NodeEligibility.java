package io.eventplane.controllers.daemonset;

import io.eventplane.core.meta.NodeSelectors;
import io.eventplane.core.meta.Taints;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.Node;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.PodSpec;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * Which nodes a DaemonSet's pod belongs on (DS-04, DS-10, Kubernetes' NodeShouldRunDaemonPod), judged as the pod
 * would be, automatic tolerations included, and ignoring resources: the template's nodeName if it names one, its
 * nodeSelector and required node affinity (by the scheduler's own rules, {@link NodeSelectors}) and the node's
 * NoSchedule and NoExecute taints. A node that is not Ready is judged by the taints the node lifecycle controller puts
 * on it: {@code not-ready}/{@code unreachable} NoSchedule keep new pods off, their NoExecute twins are tolerated, so
 * pods already there stay (DS-11). Built once per DaemonSet and step. Pure.
 *
 * @param shouldRun             a daemon pod should run on the node (one is created if missing)
 * @param shouldContinueRunning a daemon pod already on the node may stay (its NoExecute taints are tolerated)
 */
record NodeEligibility(String nodeName, Map<String, String> nodeSelector, NodeSelector required,
                       List<Toleration> tolerations) {

    record Verdict(boolean shouldRun, boolean shouldContinueRunning) {
        static final Verdict NO = new Verdict(false, false);
    }

    static NodeEligibility of(DaemonSet ds) {
        PodSpec spec = ds.getSpec() == null || ds.getSpec().getTemplate() == null
                || ds.getSpec().getTemplate().getSpec() == null ? new PodSpec() : ds.getSpec().getTemplate().getSpec();
        Map<String, String> selector = spec.getNodeSelector() == null || spec.getNodeSelector().isEmpty() ? null
                : spec.getNodeSelector();
        String nodeName = spec.getNodeName() == null || spec.getNodeName().isEmpty() ? null : spec.getNodeName();
        return new NodeEligibility(nodeName, selector, NodeSelectors.requiredOf(spec), DaemonPods.withDaemonTolerations(spec));
    }

    Verdict on(Node node) {
        String name = node.getMetadata().getName();
        if (nodeName != null && !nodeName.equals(name)) {
            return Verdict.NO;
        }
        Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
        if (!NodeSelectors.admits(nodeSelector, required, labels, name)) {
            return Verdict.NO;
        }
        List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
        if (Taints.firstUntolerated(tolerations, taints, false) != null) {
            return new Verdict(false, Taints.firstUntolerated(tolerations, taints, true) == null);
        }
        return new Verdict(true, true);
    }
}
