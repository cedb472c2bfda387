package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 4 with the real kubectl: networking.k8s.io/v1 IngressClass and NetworkPolicy examples of the
 * Kubernetes docs applied, {@code kubectl create ingress} (a protobuf body) given the default class, kubectl's columns,
 * describe, explain, patch, server-side apply and Kubernetes' refusals. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlIngressTest {
    /** The IngressClass examples of the Kubernetes docs (concepts/services-networking/ingress). */
    private static final String CLASSES = """
            apiVersion: networking.k8s.io/v1
            kind: IngressClass
            metadata:
              labels:
                app.kubernetes.io/component: controller
              name: nginx-example
              annotations:
                ingressclass.kubernetes.io/is-default-class: "true"
            spec:
              controller: k8s.io/ingress-nginx
            ---
            apiVersion: networking.k8s.io/v1
            kind: IngressClass
            metadata:
              name: external-lb
            spec:
              controller: example.com/ingress-controller
              parameters:
                apiGroup: k8s.example.com
                kind: IngressParameters
                name: external-lb
            """;
    /** The NetworkPolicy examples of the Kubernetes docs (concepts/services-networking/network-policies). */
    private static final String POLICIES = """
            apiVersion: networking.k8s.io/v1
            kind: NetworkPolicy
            metadata:
              name: test-network-policy
              namespace: default
            spec:
              podSelector:
                matchLabels:
                  role: db
              policyTypes:
              - Ingress
              - Egress
              ingress:
              - from:
                - ipBlock:
                    cidr: 172.17.0.0/16
                    except:
                    - 172.17.1.0/24
                - namespaceSelector:
                    matchLabels:
                      project: myproject
                - podSelector:
                    matchLabels:
                      role: frontend
                ports:
                - protocol: TCP
                  port: 6379
              egress:
              - to:
                - ipBlock:
                    cidr: 10.0.0.0/24
                ports:
                - protocol: TCP
                  port: 5978
            ---
            apiVersion: networking.k8s.io/v1
            kind: NetworkPolicy
            metadata:
              name: default-deny-ingress
            spec:
              podSelector: {}
              policyTypes:
              - Ingress
            ---
            apiVersion: networking.k8s.io/v1
            kind: NetworkPolicy
            metadata:
              name: multi-port-egress
              namespace: default
            spec:
              podSelector:
                matchLabels:
                  role: db
              policyTypes:
                - Egress
              egress:
                - to:
                    - ipBlock:
                        cidr: 10.0.0.0/24
                  ports:
                    - protocol: TCP
                      port: 32000
                      endPort: 32768
            """;

    private KubectlCluster cluster;
    private Kubectl kubectl;
    private Path dir;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        cluster = KubectlCluster.start(tmp, null);
        kubectl = cluster.kubectl();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("kubectl apply of the docs' IngressClasses; kubectl create ingress gets the default class; get columns "
            + "(NAME CLASS HOSTS ADDRESS PORTS AGE, NAME CONTROLLER PARAMETERS AGE), describe, explain, patch; a path "
            + "without pathType and a host that is an IP refused with Kubernetes' messages")
    void ingresses() throws Exception {
        Files.writeString(dir.resolve("classes.yaml"), CLASSES);
        assertEquals("ingressclass.networking.k8s.io/nginx-example created\n"
                + "ingressclass.networking.k8s.io/external-lb created\n",
                kubectl.ok("apply", "-f", dir.resolve("classes.yaml").toString()));
        String classes = kubectl.ok("get", "ingressclass");
        assertTrue(classes.matches("(?s)NAME\\s+CONTROLLER\\s+PARAMETERS\\s+AGE\\n"
                + "external-lb\\s+example\\.com/ingress-controller\\s+IngressParameters\\.k8s\\.example\\.com/external-lb"
                + "\\s+\\d+s\\nnginx-example\\s+k8s\\.io/ingress-nginx\\s+<none>\\s+\\d+s\\n"), classes);
        assertEquals("Cluster", kubectl.ok("get", "ingressclass", "external-lb", "-o",
                "jsonpath={.spec.parameters.scope}"));

        assertEquals("ingress.networking.k8s.io/simple created\n",
                kubectl.ok("create", "ingress", "simple", "--rule=foo.com/bar=svc1:8080,tls=my-cert"));
        assertEquals("ingress.networking.k8s.io/catch-all created\n", kubectl.ok("create", "ingress", "catch-all",
                "--class=external-lb", "--rule=/path*=svc:http", "--default-backend=defaultsvc:80"));
        assertEquals("nginx-example Exact svc1 8080 foo.com my-cert", kubectl.ok("get", "ingress", "simple", "-o",
                "jsonpath={.spec.ingressClassName} {.spec.rules[0].http.paths[0].pathType} "
                        + "{.spec.rules[0].http.paths[0].backend.service.name} "
                        + "{.spec.rules[0].http.paths[0].backend.service.port.number} {.spec.tls[0].hosts[0]} "
                        + "{.spec.tls[0].secretName}"));
        String table = kubectl.ok("get", "ingress");
        assertTrue(table.matches("(?s)NAME\\s+CLASS\\s+HOSTS\\s+ADDRESS\\s+PORTS\\s+AGE\\n"
                + "catch-all\\s+external-lb\\s+\\*\\s+80\\s+\\d+s\\n"
                + "simple\\s+nginx-example\\s+foo\\.com\\s+80, 443\\s+\\d+s\\n"), table);

        String describe = kubectl.ok("describe", "ingress", "catch-all");
        assertTrue(describe.matches("(?s)Name:\\s+catch-all\\n.*Ingress Class:\\s+external-lb\\n.*"), describe);
        assertTrue(describe.matches("(?s).*Default backend:\\s+defaultsvc:80 .*"), describe);
        assertTrue(describe.matches("(?s).*\\*\\s+/path\\s+svc:http .*"), describe);

        String explain = kubectl.ok("explain", "ingress.spec.rules.http.paths.pathType");
        assertTrue(explain.contains("GROUP:      networking.k8s.io") && explain.contains("KIND:       Ingress")
                && explain.contains("pathType determines the interpretation of the path matching"), explain);

        assertEquals("ingress.networking.k8s.io/simple patched\n", kubectl.ok("patch", "ingress", "simple",
                "--type=merge", "-p", "{\"spec\":{\"rules\":[{\"host\":\"*.foo.com\",\"http\":{\"paths\":[{\"path\":"
                        + "\"/\",\"pathType\":\"Prefix\",\"backend\":{\"service\":{\"name\":\"svc1\",\"port\":{"
                        + "\"number\":8080}}}}]}}]}}"));
        assertTrue(kubectl.ok("get", "ingress", "simple", "--no-headers")
                .matches("simple\\s+nginx-example\\s+\\*\\.foo\\.com\\s+80, 443\\s+\\d+s\\n"));

        Files.writeString(dir.resolve("bad.yaml"), """
                apiVersion: networking.k8s.io/v1
                kind: Ingress
                metadata:
                  name: bad
                spec:
                  rules:
                  - host: 10.1.2.3
                    http:
                      paths:
                      - path: /
                        backend:
                          service:
                            name: web
                            port:
                              number: 80
                """);
        String refused = kubectl.fails("apply", "-f", dir.resolve("bad.yaml").toString());
        assertTrue(refused.contains("The Ingress \"bad\" is invalid: \n* spec.rules[0].host: Invalid value: "
                + "\"10.1.2.3\": must be a DNS name, not an IP address\n* spec.rules[0].http.paths[0].pathType: Required "
                + "value: pathType must be specified\n"), refused);

        assertEquals("ingress.networking.k8s.io \"simple\" deleted\ningress.networking.k8s.io \"catch-all\" deleted\n",
                kubectl.ok("delete", "ingress", "simple", "catch-all"));
    }

    @Test
    @DisplayName("kubectl apply of the docs' NetworkPolicies: get columns (NAME POD-SELECTOR AGE), defaults, describe, "
            + "server-side apply, an except outside its cidr refused with Kubernetes' message")
    void networkPolicies() throws Exception {
        Files.writeString(dir.resolve("policies.yaml"), POLICIES);
        assertEquals("networkpolicy.networking.k8s.io/test-network-policy created\n"
                + "networkpolicy.networking.k8s.io/default-deny-ingress created\n"
                + "networkpolicy.networking.k8s.io/multi-port-egress created\n",
                kubectl.ok("apply", "-f", dir.resolve("policies.yaml").toString()));
        String table = kubectl.ok("get", "netpol");
        assertTrue(table.matches("(?s)NAME\\s+POD-SELECTOR\\s+AGE\\n"
                + "default-deny-ingress\\s+<none>\\s+\\d+s\\n"
                + "multi-port-egress\\s+role=db\\s+\\d+s\\n"
                + "test-network-policy\\s+role=db\\s+\\d+s\\n"), table);
        assertEquals("networkpolicy.networking.k8s.io/test-network-policy unchanged\n"
                + "networkpolicy.networking.k8s.io/default-deny-ingress unchanged\n"
                + "networkpolicy.networking.k8s.io/multi-port-egress unchanged\n",
                kubectl.ok("apply", "-f", dir.resolve("policies.yaml").toString()));

        String describe = kubectl.ok("describe", "networkpolicy", "test-network-policy");
        assertTrue(describe.matches("(?s)Name:\\s+test-network-policy\\n.*PodSelector:\\s+role=db\\n.*"), describe);
        assertTrue(describe.matches("(?s).*To Port: 6379/TCP\\n.*IPBlock:\\n\\s+CIDR: 172\\.17\\.0\\.0/16\\n"
                + "\\s+Except: 172\\.17\\.1\\.0/24\\n.*"), describe);
        assertTrue(describe.matches("(?s).*Policy Types: Ingress, Egress\\n.*"), describe);
        String denyAll = kubectl.ok("describe", "netpol", "default-deny-ingress");
        assertTrue(denyAll.matches("(?s).*PodSelector:\\s+<none> \\(Allowing the specific traffic to all pods in this "
                + "namespace\\)\\n.*"), denyAll);

        Files.writeString(dir.resolve("ssa.yaml"), """
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                metadata:
                  name: allow-dns
                spec:
                  podSelector: {}
                  egress:
                  - ports:
                    - port: 53
                      protocol: UDP
                    - port: 53
                """);
        assertEquals("networkpolicy.networking.k8s.io/allow-dns serverside-applied\n",
                kubectl.ok("apply", "--server-side", "-f", dir.resolve("ssa.yaml").toString()));
        assertEquals("Ingress Egress UDP TCP", kubectl.ok("get", "netpol", "allow-dns", "-o",
                "jsonpath={.spec.policyTypes[*]} {.spec.egress[0].ports[*].protocol}"));

        Files.writeString(dir.resolve("bad.yaml"), """
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                metadata:
                  name: bad
                spec:
                  podSelector: {}
                  ingress:
                  - from:
                    - ipBlock:
                        cidr: 10.0.0.0/16
                        except: [10.1.0.0/24]
                """);
        String refused = kubectl.fails("apply", "-f", dir.resolve("bad.yaml").toString());
        assertTrue(refused.contains("The NetworkPolicy \"bad\" is invalid: spec.ingress[0].from[0].ipBlock."
                + "except[0]: Invalid value: \"10.1.0.0/24\": must be a strict subset of `cidr`"), refused);
        assertTrue(kubectl.run("get", "netpol", "bad").out().contains("not found"));
    }
}
