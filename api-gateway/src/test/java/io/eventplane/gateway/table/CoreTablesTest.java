package io.eventplane.gateway.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** kubectl get for the kinds of issue 16: column names (wide ones after |) and cells as kubectl's printers make them. */
class CoreTablesTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final String META = "metadata: {name: %s, namespace: default, creationTimestamp: '2026-01-01T11:55:00Z'}\n";

    private static JsonNode table(KindInfo kind, String yaml) {
        SpecificRecord o = KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), kind.type(),
                FieldValidation.STRICT, null);
        return TableRenderer.render(kind, List.of(o), TableRenderer.Include.NONE, "v1", null, NOW);
    }

    private static List<String> row(KindInfo kind, String yaml) {
        List<String> out = new ArrayList<>();
        table(kind, yaml).path("rows").get(0).path("cells").forEach(c -> out.add(c.asText()));
        return out;
    }

    private static String header(KindInfo kind) {
        List<String> names = new ArrayList<>();
        List<String> wide = new ArrayList<>();
        for (Columns.Column c : TableRenderer.columnsFor(kind).columns()) {
            (c.priority() == 0 ? names : wide).add(c.name().toUpperCase());
        }
        return String.join(" ", names) + (wide.isEmpty() ? "" : " | " + String.join(" ", wide));
    }

    @Test
    @DisplayName("configmaps NAME DATA AGE (text and binary keys); secrets NAME TYPE DATA AGE; serviceaccounts NAME SECRETS AGE")
    void configKinds() {
        assertEquals("NAME DATA AGE", header(Kinds.CONFIG_MAP));
        assertEquals(List.of("game", "3", "5m"), row(Kinds.CONFIG_MAP, META.formatted("game")
                + "data: {a: '1', b: '2'}\nbinaryData: {c: AA==}\n"));
        assertEquals(List.of("empty", "0", "5m"), row(Kinds.CONFIG_MAP, META.formatted("empty")));
        assertEquals("NAME TYPE DATA AGE", header(Kinds.SECRET));
        assertEquals(List.of("creds", "Opaque", "1", "5m"), row(Kinds.SECRET, META.formatted("creds")
                + "type: Opaque\ndata: {password: czNjcjN0}\n"));
        assertEquals("NAME SECRETS AGE", header(Kinds.SERVICE_ACCOUNT));
        assertEquals(List.of("default", "0", "5m"), row(Kinds.SERVICE_ACCOUNT, META.formatted("default")));
    }

    @Test
    @DisplayName("services NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE | SELECTOR, per type")
    void services() {
        assertEquals("NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE | SELECTOR", header(Kinds.SERVICE));
        assertEquals(List.of("kubernetes", "ClusterIP", "10.96.0.1", "<none>", "443/TCP", "5m", "<none>"),
                row(Kinds.SERVICE, META.formatted("kubernetes") + """
                        spec: {type: ClusterIP, clusterIP: 10.96.0.1, clusterIPs: [10.96.0.1],
                               ports: [{name: https, port: 443, protocol: TCP, targetPort: 6443}]}
                        """));
        assertEquals(List.of("lb", "LoadBalancer", "10.96.4.4", "<pending>", "80:31234/TCP,443:31235/TCP", "5m",
                        "app=web,tier=front"), row(Kinds.SERVICE, META.formatted("lb") + """
                        spec: {type: LoadBalancer, clusterIPs: [10.96.4.4], selector: {tier: front, app: web},
                               ports: [{port: 80, nodePort: 31234, protocol: TCP}, {port: 443, nodePort: 31235, protocol: TCP}]}
                        """));
        assertEquals("198.51.100.2,lb.example.com,203.0.113.9", row(Kinds.SERVICE, META.formatted("lb") + """
                spec: {type: LoadBalancer, externalIPs: [203.0.113.9], ports: [{port: 80, protocol: TCP}]}
                status: {loadBalancer: {ingress: [{hostname: lb.example.com}, {ip: 198.51.100.2}]}}
                """).get(3));
        assertEquals(List.of("db", "ExternalName", "<none>", "db.example.com", "<none>", "5m", "<none>"),
                row(Kinds.SERVICE, META.formatted("db") + "spec: {type: ExternalName, externalName: db.example.com}\n"));
    }

    @Test
    @DisplayName("endpoints list up to three ip:port pairs then + N more...; endpointslices show ports and addresses")
    void endpoints() {
        assertEquals("NAME ENDPOINTS AGE", header(Kinds.ENDPOINTS));
        assertEquals(List.of("web", "10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...", "5m"),
                row(Kinds.ENDPOINTS, META.formatted("web") + """
                        subsets: [{addresses: [{ip: 10.0.0.1}, {ip: 10.0.0.2}], ports: [{port: 80}, {port: 443}]}]
                        """));
        assertEquals(List.of("none", "<none>", "5m"), row(Kinds.ENDPOINTS, META.formatted("none")));
        assertEquals(List.of("v6", "[fd00::1]:53", "5m"), row(Kinds.ENDPOINTS, META.formatted("v6")
                + "subsets: [{addresses: [{ip: 'fd00::1'}], ports: [{port: 53}]}]\n"));
        assertEquals("NAME ADDRESSTYPE PORTS ENDPOINTS AGE", header(Kinds.ENDPOINT_SLICE));
        assertEquals(List.of("web-abc", "IPv4", "80,http,*", "10.1.0.1,10.1.0.2,10.1.0.3 + 1 more...", "5m"),
                row(Kinds.ENDPOINT_SLICE, META.formatted("web-abc") + """
                        addressType: IPv4
                        ports: [{port: 80}, {name: http}, {}]
                        endpoints: [{addresses: [10.1.0.1, 10.1.0.2]}, {addresses: [10.1.0.3, 10.1.0.4]}]
                        """));
        assertEquals(List.of("empty", "IPv4", "<unset>", "<unset>", "5m"),
                row(Kinds.ENDPOINT_SLICE, META.formatted("empty") + "addressType: IPv4\n"));
    }

    @Test
    @DisplayName("persistentvolumeclaims show capacity and modes once bound; persistentvolumes their claim; Terminating wins")
    void volumes() {
        assertEquals("NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE | VOLUMEMODE",
                header(Kinds.PERSISTENT_VOLUME_CLAIM));
        assertEquals(List.of("data", "Bound", "pv1", "10Gi", "RWO,RWX", "fast", "gold", "5m", "Filesystem"),
                row(Kinds.PERSISTENT_VOLUME_CLAIM, META.formatted("data") + """
                        spec: {volumeName: pv1, storageClassName: fast, volumeAttributesClassName: gold,
                               volumeMode: Filesystem, resources: {requests: {storage: 8Gi}}}
                        status: {phase: Bound, accessModes: [ReadWriteMany, ReadWriteOnce], capacity: {storage: 10240Mi}}
                        """));
        assertEquals(List.of("old", "Terminating", "", "", "", "slow", "<unset>", "5m", "<unset>"),
                row(Kinds.PERSISTENT_VOLUME_CLAIM, """
                        metadata: {name: old, namespace: default, creationTimestamp: '2026-01-01T11:55:00Z',
                                   deletionTimestamp: '2026-01-01T11:59:00Z',
                                   annotations: {volume.beta.kubernetes.io/storage-class: slow}}
                        status: {phase: Bound}
                        """));
        assertEquals("NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE"
                + " | VOLUMEMODE", header(Kinds.PERSISTENT_VOLUME));
        assertEquals(List.of("pv1", "10Gi", "RWOP", "Delete", "Released", "default/data", "", "<unset>", "Gone", "5m",
                        "Block"), row(Kinds.PERSISTENT_VOLUME, META.formatted("pv1") + """
                        spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteOncePod], volumeMode: Block,
                               persistentVolumeReclaimPolicy: Delete, claimRef: {namespace: default, name: data},
                               csi: {driver: d, volumeHandle: h}}
                        status: {phase: Released, reason: Gone}
                        """));
    }

    @Test
    @DisplayName("storageclasses mark the default class and print allowVolumeExpansion as a boolean")
    void storageClasses() {
        assertEquals("NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE", header(Kinds.STORAGE_CLASS));
        JsonNode t = table(Kinds.STORAGE_CLASS, """
                metadata: {name: standard, creationTimestamp: '2026-01-01T11:55:00Z',
                           annotations: {storageclass.kubernetes.io/is-default-class: 'true'}}
                provisioner: rancher.io/local-path
                """);
        assertEquals("[\"standard (default)\",\"rancher.io/local-path\",\"Delete\",\"Immediate\",false,\"5m\"]",
                t.path("rows").get(0).path("cells").toString());
        assertEquals(List.of("fast", "ebs.csi.aws.com", "Retain", "WaitForFirstConsumer", "true", "5m"),
                row(Kinds.STORAGE_CLASS, """
                        metadata: {name: fast, creationTimestamp: '2026-01-01T11:55:00Z'}
                        provisioner: ebs.csi.aws.com
                        reclaimPolicy: Retain
                        volumeBindingMode: WaitForFirstConsumer
                        allowVolumeExpansion: true
                        """));
    }

    @Test
    @DisplayName("priorityclasses NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY; resourcequotas NAME AGE REQUEST LIMIT; "
            + "limitranges NAME CREATED AT")
    void policies() {
        assertEquals("NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY", header(Kinds.PRIORITY_CLASS));
        JsonNode pc = table(Kinds.PRIORITY_CLASS, """
                metadata: {name: system-node-critical, creationTimestamp: '2026-01-01T11:55:00Z'}
                value: 2000001000
                globalDefault: true
                preemptionPolicy: PreemptLowerPriority
                """);
        assertEquals("[\"system-node-critical\",2000001000,true,\"5m\",\"PreemptLowerPriority\"]",
                pc.path("rows").get(0).path("cells").toString());
        assertEquals("boolean", pc.path("columnDefinitions").get(2).path("type").asText());
        assertEquals("NAME AGE REQUEST LIMIT", header(Kinds.RESOURCE_QUOTA));
        assertEquals(List.of("compute", "5m", "pods: 2/10, requests.cpu: 500m/1", "limits.memory: 0/2Gi"),
                row(Kinds.RESOURCE_QUOTA, META.formatted("compute") + """
                        spec: {hard: {pods: '10'}}
                        status: {hard: {pods: '10', requests.cpu: '1', limits.memory: 2Gi},
                                 used: {pods: '2', requests.cpu: 500m}}
                        """));
        assertEquals("NAME CREATED AT", header(Kinds.LIMIT_RANGE));
        JsonNode lr = table(Kinds.LIMIT_RANGE, META.formatted("limits"));
        assertEquals(List.of("limits", "2026-01-01T11:55:00Z"), List.of(lr.path("rows").get(0).path("cells").get(0).asText(),
                lr.path("rows").get(0).path("cells").get(1).asText()));
        assertEquals("date", lr.path("columnDefinitions").get(1).path("type").asText());
        assertTrue(lr.path("rows").get(0).path("object").isMissingNode());
    }
}
