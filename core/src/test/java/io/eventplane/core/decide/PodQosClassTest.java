package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.merge;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.model.Pod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The QoS class a created pod is given in status.qosClass (spec/pods.md §14's truth table). */
class PodQosClassTest {
    final Decisions decisions = new Decisions();

    @ParameterizedTest(name = "POD-14.1 POD-14.2 POD-14.3 POD-14.4 POD-14.10 {0}: {2}")
    @CsvSource(delimiter = '|', value = {
        "W-Q1 requests equal limits for cpu and memory|containers: [{name: app, image: nginx, resources: {requests: {cpu: 500m, memory: 128Mi}, limits: {cpu: 500m, memory: 128Mi}}}]|Guaranteed",
        "limits only (requests default to them)|containers: [{name: app, image: nginx, resources: {limits: {cpu: 500m, memory: 128Mi}}}]|Guaranteed",
        "W-Q2 as W-Q1 plus an init container without resources|containers: [{name: app, image: nginx, resources: {requests: {cpu: 500m, memory: 128Mi}, limits: {cpu: 500m, memory: 128Mi}}}], initContainers: [{name: init, image: busybox}]|Burstable",
        "W-Q2 only a cpu request|containers: [{name: app, image: nginx, resources: {requests: {cpu: 100m}}}]|Burstable",
        "W-Q2 one container Guaranteed, the other without resources|containers: [{name: app, image: nginx, resources: {requests: {cpu: 500m, memory: 128Mi}, limits: {cpu: 500m, memory: 128Mi}}}, {name: side, image: busybox}]|Burstable",
        "W-Q3 no resources at all|containers: [{name: app, image: nginx}]|BestEffort",
        "W-Q3 only an extended resource|containers: [{name: app, image: nginx, resources: {requests: {example.com/gpu: '1'}, limits: {example.com/gpu: '1'}}}]|BestEffort"})
    void qosClass(String name, String spec, String expected) {
        Pod pod = merge(PodOsValidationTest.POD, "{spec: {" + spec + "}}");
        Pod created = decisions.created(pod);
        assertEquals(expected, created.getStatus().getQosClass());
    }
}
