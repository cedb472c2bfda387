package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.gateway.alloc.ServiceNetwork;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 with the real kubectl: {@code kubectl create secret generic|docker-registry|tls} (protobuf bodies), data
 * base64 and stringData, kubectl's Secret columns, an immutable Secret refusing updates with Kubernetes' messages; and
 * one manifest of every kind issue 16 added walked through apply (created), get (columns), apply again (unchanged),
 * a changed apply (configured) and delete -f. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlCoreKindsTest {
    /** A self-signed P-256 certificate and its key (kubectl create secret tls checks that they pair). */
    static final String CERT = """
            -----BEGIN CERTIFICATE-----
            MIIBhjCCASugAwIBAgIUYesEbwTyBOzgM2bnvKM3U3xFKuowCgYIKoZIzj0EAwIw
            FzEVMBMGA1UEAwwMZXhhbXBsZS50ZXN0MCAXDTI2MTEyNjAyMTY1M1oYDzIxMjYx
            MTAyMDIxNjUzWjAXMRUwEwYDVQQDDAxleGFtcGxlLnRlc3QwWTATBgcqhkjOPQIB
            BggqhkjOPQMBBwNCAAQn4uvLtEZOu02aY8oT/yhFtfz2OyR0jaeBQ5NZmRlHotRZ
            LOC8AW+9A4w8tkSNv2hKthZtg5CBtWeynXFmk2sio1MwUTAdBgNVHQ4EFgQUfvHO
            Qthgb2Wf+MT0hpUG1mnU4QQwHwYDVR0jBBgwFoAUfvHOQthgb2Wf+MT0hpUG1mnU
            4QQwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEAhh4JG/B19a60
            Ys43YkaQZlwloXwczTOkD20wEwhKnOMCIQCUW5YLg8S1s9fhW0+c5x55TwRm6GU0
            6aceP2s9CKJ1GA==
            -----END CERTIFICATE-----
            """;
    static final String KEY = """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4UHkzog+c0Bmfzlh
            JkusJUogOaVT37/bbD+ZED7aT7ShRANCAAQn4uvLtEZOu02aY8oT/yhFtfz2OyR0
            jaeBQ5NZmRlHotRZLOC8AW+9A4w8tkSNv2hKthZtg5CBtWeynXFmk2si
            -----END PRIVATE KEY-----
            """;

    private KubectlCluster cluster;
    private Kubectl kubectl;
    private Path dir;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        cluster = KubectlCluster.start(new ControlLoop(), tmp, "resourcequota,persistentvolume-binder,"
                + "pvc-protection,pv-protection", ServiceNetwork.defaults());
        kubectl = cluster.kubectl();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("kubectl create secret generic, docker-registry and tls: data base64, types, kubectl get secret columns; "
            + "stringData merged into data; bad base64 refused; an immutable Secret refuses changes with Kubernetes' message")
    void secrets() throws Exception {
        assertEquals("secret/db created\n", kubectl.ok("create", "secret", "generic", "db", "--from-literal=user=admin",
                "--from-literal=password=s3cr3t"));
        assertEquals(b64("admin") + " " + b64("s3cr3t"),
                kubectl.ok("get", "secret", "db", "-o", "jsonpath={.data.user} {.data.password}"));
        assertEquals("secret/regcred created\n", kubectl.ok("create", "secret", "docker-registry", "regcred",
                "--docker-server=registry.example.com", "--docker-username=robot", "--docker-password=hunter2",
                "--docker-email=robot@example.com"));
        String dockerConfig = new String(Base64.getDecoder().decode(kubectl.ok("get", "secret", "regcred", "-o",
                "jsonpath={.data.\\.dockerconfigjson}")), StandardCharsets.UTF_8);
        assertTrue(dockerConfig.contains("\"registry.example.com\"") && dockerConfig.contains("\"username\":\"robot\"")
                && dockerConfig.contains("\"auth\":\"" + b64("robot:hunter2") + "\""), dockerConfig);
        Files.writeString(dir.resolve("tls.crt"), CERT);
        Files.writeString(dir.resolve("tls.key"), KEY);
        assertEquals("secret/web-tls created\n", kubectl.ok("create", "secret", "tls", "web-tls",
                "--cert=" + dir.resolve("tls.crt"), "--key=" + dir.resolve("tls.key")));
        assertEquals(CERT, new String(Base64.getDecoder().decode(kubectl.ok("get", "secret", "web-tls", "-o",
                "jsonpath={.data.tls\\.crt}")), StandardCharsets.UTF_8));

        String table = kubectl.ok("get", "secrets");
        assertTrue(table.matches("(?s)NAME\\s+TYPE\\s+DATA\\s+AGE\\n.*"), table);
        assertTrue(table.matches("(?s).*\\ndb\\s+Opaque\\s+2\\s+\\d+s\\n.*"), table);
        assertTrue(table.matches("(?s).*\\nregcred\\s+kubernetes\\.io/dockerconfigjson\\s+1\\s+\\d+s\\n.*"), table);
        assertTrue(table.matches("(?s).*\\nweb-tls\\s+kubernetes\\.io/tls\\s+2\\s+\\d+s\\n.*"), table);

        write("string-data.yaml", """
                apiVersion: v1
                kind: Secret
                metadata:
                  name: mixed
                type: kubernetes.io/basic-auth
                data:
                  username: YWRtaW4=
                stringData:
                  password: t0p-Secret
                """);
        assertEquals("secret/mixed created\n", kubectl.ok("apply", "-f", path("string-data.yaml")));
        assertEquals(b64("admin") + " " + b64("t0p-Secret") + " ", kubectl.ok("get", "secret", "mixed", "-o",
                "jsonpath={.data.username} {.data.password} {.stringData}"));
        assertTrue(kubectl.ok("get", "secret", "mixed", "--no-headers")
                .matches("mixed\\s+kubernetes\\.io/basic-auth\\s+2\\s+\\d+s\\n"));

        write("bad-base64.yaml", """
                apiVersion: v1
                kind: Secret
                metadata:
                  name: bad
                data:
                  token: not*base64
                """);
        String bad = kubectl.fails("apply", "-f", path("bad-base64.yaml"));
        assertTrue(bad.contains("illegal base64 data at input byte 3"), bad);
        assertTrue(kubectl.run("get", "secret", "bad").out().contains("secrets \"bad\" not found"));

        write("frozen.yaml", frozen("cGFzcw==", true));
        assertEquals("secret/frozen created\n", kubectl.ok("apply", "-f", path("frozen.yaml")));
        write("frozen.yaml", frozen("b3RoZXI=", true));
        String changed = kubectl.fails("apply", "-f", path("frozen.yaml"));
        assertTrue(changed.contains("Secret \"frozen\" is invalid: data: Forbidden: field is immutable when `immutable` is set"),
                changed);
        write("frozen.yaml", frozen("cGFzcw==", false));
        String thawed = kubectl.fails("apply", "-f", path("frozen.yaml"));
        assertTrue(thawed.contains("Secret \"frozen\" is invalid: immutable: Forbidden: field is immutable when "
                + "`immutable` is set"), thawed);
        String patched = kubectl.fails("patch", "secret", "frozen", "-p", "{\"data\":{\"more\":\"eA==\"}}");
        assertTrue(patched.contains("data: Forbidden: field is immutable when `immutable` is set"), patched);
        assertEquals("cGFzcw==", kubectl.ok("get", "secret", "frozen", "-o", "jsonpath={.data.password}"));
        assertEquals("secret/frozen labeled\n", kubectl.ok("label", "secret", "frozen", "tier=db"));
        assertEquals("secret \"frozen\" deleted\n", kubectl.ok("delete", "secret", "frozen"));
    }

    @Test
    @DisplayName("one manifest of every kind issue 16 added: kubectl apply (created), get with kubectl's columns, apply "
            + "again (unchanged), a changed apply (configured), delete -f")
    void everyKind() throws Exception {
        kubectl.ok("create", "namespace", "walk");
        write("all.yaml", manifest(""));
        List<String> names = List.of("configmap/walk-config", "secret/walk-secret", "serviceaccount/walk-robot",
                "service/walk-svc", "endpoints/walk-external", "endpointslice.discovery.k8s.io/walk-external-1",
                "storageclass.storage.k8s.io/walk-fast", "persistentvolume/walk-pv", "persistentvolumeclaim/walk-claim",
                "priorityclass.scheduling.k8s.io/walk-high", "limitrange/walk-limits", "resourcequota/walk-quota");
        assertEquals(lines(names, "created"), kubectl.ok("apply", "-n", "walk", "-f", path("all.yaml")));

        assertColumns("configmap", "walk-config", "NAME\\s+DATA\\s+AGE", "walk-config\\s+2\\s+\\d+s");
        assertColumns("secret", "walk-secret", "NAME\\s+TYPE\\s+DATA\\s+AGE", "walk-secret\\s+Opaque\\s+1\\s+\\d+s");
        assertColumns("serviceaccount", "walk-robot", "NAME\\s+SECRETS\\s+AGE", "walk-robot\\s+0\\s+\\d+s");
        assertColumns("service", "walk-svc", "NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE",
                "walk-svc\\s+NodePort\\s+10\\.\\d+\\.\\d+\\.\\d+\\s+<none>\\s+80:30123/TCP,443:3\\d{4}/TCP\\s+\\d+s");
        assertColumns("endpoints", "walk-external", "NAME\\s+ENDPOINTS\\s+AGE",
                "walk-external\\s+192\\.0\\.2\\.42:9376\\s+\\d+s");
        assertColumns("endpointslice", "walk-external-1", "NAME\\s+ADDRESSTYPE\\s+PORTS\\s+ENDPOINTS\\s+AGE",
                "walk-external-1\\s+IPv4\\s+80\\s+10\\.1\\.2\\.3,10\\.1\\.2\\.4\\s+\\d+s");
        assertColumns("storageclass", "walk-fast",
                "NAME\\s+PROVISIONER\\s+RECLAIMPOLICY\\s+VOLUMEBINDINGMODE\\s+ALLOWVOLUMEEXPANSION\\s+AGE",
                "walk-fast\\s+kubernetes\\.io/no-provisioner\\s+Retain\\s+WaitForFirstConsumer\\s+true\\s+\\d+s");
        kubectl.until(o -> o.contains("Available"), "get", "pv", "walk-pv");
        assertColumns("pv", "walk-pv", "NAME\\s+CAPACITY\\s+ACCESS MODES\\s+RECLAIM POLICY\\s+STATUS\\s+CLAIM\\s+"
                + "STORAGECLASS\\s+VOLUMEATTRIBUTESCLASS\\s+REASON\\s+AGE",
                "walk-pv\\s+2Gi\\s+RWO\\s+Retain\\s+Available\\s+walk-fast\\s+<unset>\\s+\\d+s");
        assertColumns("pvc", "walk-claim", "NAME\\s+STATUS\\s+VOLUME\\s+CAPACITY\\s+ACCESS MODES\\s+STORAGECLASS\\s+"
                + "VOLUMEATTRIBUTESCLASS\\s+AGE", "walk-claim\\s+Pending\\s+walk-fast\\s+<unset>\\s+\\d+s");
        assertColumns("priorityclass", "walk-high", "NAME\\s+VALUE\\s+GLOBAL-DEFAULT\\s+AGE\\s+PREEMPTIONPOLICY",
                "walk-high\\s+1000000\\s+false\\s+\\d+s\\s+Never");
        assertColumns("limitrange", "walk-limits", "NAME\\s+CREATED AT",
                "walk-limits\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        kubectl.until(o -> o.contains("configmaps: 1/10"), "get", "quota", "-n", "walk", "walk-quota");
        assertColumns("resourcequota", "walk-quota", "NAME\\s+AGE\\s+REQUEST\\s+LIMIT",
                "walk-quota\\s+\\d+s\\s+configmaps: 1/10, requests\\.cpu: 0/1\\s+limits\\.cpu: 0/2");

        assertEquals(lines(names, "unchanged"), kubectl.ok("apply", "-n", "walk", "-f", path("all.yaml")));
        write("all.yaml", manifest("    walk: changed\n"));
        assertEquals(lines(names, "configured"), kubectl.ok("apply", "-n", "walk", "-f", path("all.yaml")));
        for (String name : names) {
            assertEquals("changed", kubectl.ok("get", "-n", "walk", name, "-o", "jsonpath={.metadata.labels.walk}"),
                    name);
        }
        assertEquals(lines(names, "unchanged"), kubectl.ok("apply", "-n", "walk", "-f", path("all.yaml")));

        StringBuilder deleted = new StringBuilder();
        for (String name : names) {
            int slash = name.indexOf('/');
            deleted.append(name, 0, slash).append(" \"").append(name.substring(slash + 1)).append("\" deleted\n");
        }
        String deletion = kubectl.ok("delete", "-n", "walk", "-f", path("all.yaml"));
        String warning = "Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n";
        assertTrue(deletion.contains(warning), deletion); // kubectl's own, before the first cluster-scoped object
        assertEquals(deleted.toString(), deletion.replace(warning, ""));
        assertEquals("", kubectl.ok("get", "-n", "walk", "configmaps,secrets,services,endpoints,endpointslices,pvc,"
                + "quota,limits", "-l", "walk=changed", "-o", "name"));
        assertEquals("", kubectl.ok("get", "pv,sc,pc", "-l", "walk=changed", "-o", "name"));
    }

    private void assertColumns(String resource, String name, String header, String row) throws Exception {
        String out = kubectl.ok("get", "-n", "walk", resource, name);
        assertTrue(out.matches(header + "\\s*\\n" + row + "\\s*\\n"), () -> "kubectl get " + resource + ":\n" + out);
    }

    private static String lines(List<String> names, String verb) {
        StringBuilder s = new StringBuilder();
        names.forEach(n -> s.append(n).append(' ').append(verb).append('\n'));
        return s.toString();
    }

    /** Every kind of issue 16 in one file, in an order that lets each be admitted; {@code labels} go on each. */
    private static String manifest(String labels) {
        String meta = "  labels:\n    app: walk\n" + labels;
        return String.join("---\n",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: walk-config\n" + meta
                        + "data:\n  game.properties: |\n    lives=3\n  ui.color: blue\n",
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: walk-secret\n" + meta
                        + "type: Opaque\ndata:\n  token: c2VjcmV0\n",
                "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: walk-robot\n" + meta
                        + "automountServiceAccountToken: false\n",
                "apiVersion: v1\nkind: Service\nmetadata:\n  name: walk-svc\n" + meta
                        + "spec:\n  type: NodePort\n  selector:\n    app: walk\n  ports:\n  - name: http\n    port: 80\n"
                        + "    targetPort: 8080\n    nodePort: 30123\n  - name: https\n    port: 443\n"
                        + "    targetPort: https\n",
                // subsets is an atomic list: without the defaulted protocol, every apply would differ (as on Kubernetes)
                "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: walk-external\n" + meta
                        + "subsets:\n- addresses:\n  - ip: 192.0.2.42\n  ports:\n  - port: 9376\n    protocol: TCP\n",
                "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: walk-external-1\n" + meta
                        + "    kubernetes.io/service-name: walk-external\naddressType: IPv4\nports:\n- name: http\n"
                        + "  protocol: TCP\n  port: 80\nendpoints:\n- addresses: [10.1.2.3]\n  conditions:\n"
                        + "    ready: true\n  hostname: pod-1\n  zone: us-west2-a\n- addresses: [10.1.2.4]\n"
                        + "  conditions:\n    ready: false\n",
                "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: walk-fast\n" + meta
                        + "provisioner: kubernetes.io/no-provisioner\nreclaimPolicy: Retain\n"
                        + "volumeBindingMode: WaitForFirstConsumer\nallowVolumeExpansion: true\n"
                        + "mountOptions: [debug]\n",
                "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: walk-pv\n" + meta
                        + "spec:\n  capacity:\n    storage: 2Gi\n  accessModes: [ReadWriteOnce]\n"
                        + "  persistentVolumeReclaimPolicy: Retain\n  storageClassName: walk-fast\n"
                        + "  local:\n    path: /mnt/disks/ssd1\n  nodeAffinity:\n    required:\n"
                        + "      nodeSelectorTerms:\n      - matchExpressions:\n        - key: kubernetes.io/hostname\n"
                        + "          operator: In\n          values: [node-1]\n",
                "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: walk-claim\n" + meta
                        + "spec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: walk-fast\n  resources:\n"
                        + "    requests:\n      storage: 1Gi\n",
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: walk-high\n" + meta
                        + "value: 1000000\nglobalDefault: false\npreemptionPolicy: Never\n"
                        + "description: Walk pods only.\n",
                "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: walk-limits\n" + meta
                        + "spec:\n  limits:\n  - type: Container\n    default:\n      cpu: 500m\n    defaultRequest:\n"
                        + "      cpu: 250m\n    max:\n      cpu: \"1\"\n    min:\n      cpu: 100m\n",
                "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: walk-quota\n" + meta
                        + "spec:\n  hard:\n    configmaps: \"10\"\n    requests.cpu: \"1\"\n    limits.cpu: \"2\"\n");
    }

    private static String frozen(String password, boolean immutable) {
        return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: frozen\nimmutable: " + immutable
                + "\ndata:\n  password: " + password + "\n";
    }

    private void write(String file, String text) throws Exception {
        Files.writeString(dir.resolve(file), text);
    }

    private String path(String file) {
        return dir.resolve(file).toString();
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
