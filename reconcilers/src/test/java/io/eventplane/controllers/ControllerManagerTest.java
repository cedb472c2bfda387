package io.eventplane.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ControllerManagerTest {
    private static List<String> names(String selection) {
        return ControllerManager.select(selection).stream().map(ControllerManager.Definition::name).toList();
    }

    @ParameterizedTest(name = "\"{0}\" selects {1}")
    @CsvSource(delimiter = '|', value = {
            "deployment                 | deployment",
            "deployment,replicaset      | replicaset,deployment",
            "' replicaset , podgc '     | replicaset,podgc",
            "*,-garbagecollector,-podgc | replicaset,replicationcontroller,deployment,daemonset,statefulset,disruption,"
                    + "endpoint,endpointslice,job,ttl-after-finished,cronjob,horizontalpodautoscaling,nodelifecycle,"
                    + "namespace,serviceaccount,resourcequota,persistentvolume-binder,pvc-protection,pv-protection,"
                    + "sim-provisioner,crd-finalizer,crd-naming,csrsigning,clusterrole-aggregation,eventttl,root-ca-cert-publisher",
    })
    @DisplayName("controllers are selected as kube-controller-manager's --controllers selects them, in start order")
    void selects(String selection, String expected) {
        assertEquals(List.of(expected.split(",")), names(selection));
    }

    @Test
    @DisplayName("no selection, or *, is every controller")
    void all() {
        List<String> all = ControllerManager.DEFINITIONS.stream().map(ControllerManager.Definition::name).toList();
        assertEquals(all, names(""));
        assertEquals(all, names("*"));
        assertEquals(all, names(null));
    }

    @Test
    @DisplayName("an unknown name is refused with the names that exist")
    void unknown() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> names("deploymnet"));
        assertEquals(true, e.getMessage().contains("deploymnet") && e.getMessage().contains("deployment"), e.getMessage());
    }

    @Test
    @DisplayName("names and actors are unique: each controller has its own Lease and its own commands in the log")
    void unique() {
        var defs = ControllerManager.DEFINITIONS;
        assertEquals(defs.size(), defs.stream().map(ControllerManager.Definition::name).distinct().count());
        assertEquals(defs.size(), defs.stream().map(ControllerManager.Definition::actor).distinct().count());
        assertEquals(defs.size(), defs.stream().map(ControllerManager.Definition::component).distinct().count());
    }

    @Test
    @DisplayName("CJ-17 CJ-X08 one CronJob controller, kube-controller-manager's current one by its name cronjob: no "
            + "v1/v2 switch to select (the missed-times rule it follows is CJ-X09's choice)")
    void oneCronJobController() {
        assertEquals(List.of("cronjob"), ControllerManager.DEFINITIONS.stream().map(ControllerManager.Definition::name)
                .filter(n -> n.contains("cron")).toList());
        assertEquals(List.of("cronjob"), names("cronjob"));
        assertThrows(IllegalArgumentException.class, () -> names("CronJobControllerV2"));
    }
}
