package io.eventplane.gateway.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.kubernetes.client.proto.IntStr.IntOrString;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource.Quantity;
import io.kubernetes.client.proto.Runtime.RawExtension;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Coordination;
import java.nio.charset.StandardCharsets;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Messages built with the artifact's builders, as a protobuf client builds them, read back over the descriptors (as
 * the gateway parses a body) and decoded like the equivalent manifest.
 */
class ProtobufJsonTest {
    private static final Quantity CPU = Quantity.newBuilder().setString("500m").build();

    @Test
    @DisplayName("a Pod: Quantity as its string, IntOrString as number or name, maps, embedded structs inline, pointer "
            + "zeros kept, value zeros and unset fields absent")
    void pod() {
        V1.Pod pod = V1.Pod.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("web").putLabels("app", "web")
                        .putAnnotations("empty", "").setGeneration(0).setCreationTimestamp(Meta.Time.newBuilder()))
                .setSpec(V1.PodSpec.newBuilder()
                        .addContainers(V1.Container.newBuilder().setName("nginx").setImage("nginx:1.27").addArgs("")
                                .addPorts(V1.ContainerPort.newBuilder().setName("http").setContainerPort(80)
                                        .setProtocol("TCP").setHostPort(0))
                                .setResources(V1.ResourceRequirements.newBuilder().putLimits("cpu", CPU)
                                        .putRequests("memory", Quantity.newBuilder().setString("128Mi").build()))
                                .setReadinessProbe(V1.Probe.newBuilder().setPeriodSeconds(5).setHandler(
                                        V1.ProbeHandler.newBuilder().setHttpGet(V1.HTTPGetAction.newBuilder().setPath("/")
                                                .setPort(IntOrString.newBuilder().setType(1).setStrVal("http")))))
                                .setLivenessProbe(V1.Probe.newBuilder().setHandler(V1.ProbeHandler.newBuilder()
                                        .setTcpSocket(V1.TCPSocketAction.newBuilder()
                                                .setPort(IntOrString.newBuilder().setType(0).setIntVal(8080)))))
                                .addEnv(V1.EnvVar.newBuilder().setName("PW").setValueFrom(V1.EnvVarSource.newBuilder()
                                        .setSecretKeyRef(V1.SecretKeySelector.newBuilder().setKey("pw")
                                                .setLocalObjectReference(V1.LocalObjectReference.newBuilder()
                                                        .setName("creds")))))
                                .addVolumeMounts(V1.VolumeMount.newBuilder().setName("config").setMountPath("/etc/c")
                                        .setReadOnly(true))
                                .setStdin(false))
                        .addVolumes(V1.Volume.newBuilder().setName("config").setVolumeSource(V1.VolumeSource.newBuilder()
                                .setConfigMap(V1.ConfigMapVolumeSource.newBuilder().setDefaultMode(0)
                                        .setLocalObjectReference(V1.LocalObjectReference.newBuilder().setName("cm")))))
                        .setTerminationGracePeriodSeconds(0)
                        .setSecurityContext(V1.PodSecurityContext.newBuilder().setRunAsUser(0))
                        .setHostNetwork(false))
                .build();
        assertSame(Kinds.POD, pod, """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web
                  labels: {app: web}
                  annotations: {empty: ""}
                spec:
                  containers:
                  - name: nginx
                    image: nginx:1.27
                    args: [""]
                    ports: [{name: http, containerPort: 80, protocol: TCP}]
                    resources:
                      limits: {cpu: 500m}
                      requests: {memory: 128Mi}
                    readinessProbe: {periodSeconds: 5, httpGet: {path: /, port: http}}
                    livenessProbe: {tcpSocket: {port: 8080}}
                    env: [{name: PW, valueFrom: {secretKeyRef: {name: creds, key: pw}}}]
                    volumeMounts: [{name: config, mountPath: /etc/c, readOnly: true}]
                  volumes: [{name: config, configMap: {name: cm, defaultMode: 0}}]
                  terminationGracePeriodSeconds: 0
                  securityContext: {runAsUser: 0}
                """);
        ObjectNode json = ProtobufJson.object(read(pod));
        JsonNode container = json.path("spec").path("containers").get(0);
        assertEquals("500m", container.path("resources").path("limits").path("cpu").textValue());
        assertEquals("http", container.path("readinessProbe").path("httpGet").path("port").textValue());
        assertEquals(8080, container.path("livenessProbe").path("tcpSocket").path("port").intValue());
        assertTrue(json.path("metadata").path("creationTimestamp").isMissingNode(), "an empty Time is Go's zero: " + json);
        assertTrue(json.path("metadata").path("generation").isMissingNode(), json.toString());
        assertTrue(json.path("metadata").path("namespace").isMissingNode(), "never set: " + json);
    }

    @Test
    @DisplayName("a Deployment: percent and integer IntOrStrings, replicas 0 kept, an empty struct present")
    void deployment() {
        V1Apps.Deployment d = V1Apps.Deployment.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("web").setNamespace("default"))
                .setSpec(V1Apps.DeploymentSpec.newBuilder().setReplicas(0).setMinReadySeconds(0)
                        .setSelector(Meta.LabelSelector.newBuilder().putMatchLabels("app", "web"))
                        .setStrategy(V1Apps.DeploymentStrategy.newBuilder().setType("RollingUpdate")
                                .setRollingUpdate(V1Apps.RollingUpdateDeployment.newBuilder()
                                        .setMaxUnavailable(IntOrString.newBuilder().setType(1).setStrVal("25%"))
                                        .setMaxSurge(IntOrString.newBuilder().setType(0).setIntVal(1))))
                        .setTemplate(V1.PodTemplateSpec.newBuilder()
                                .setMetadata(Meta.ObjectMeta.newBuilder().putLabels("app", "web"))
                                .setSpec(V1.PodSpec.newBuilder().addContainers(V1.Container.newBuilder()
                                        .setName("nginx").setImage("nginx").setResources(
                                                V1.ResourceRequirements.newBuilder())))))
                .build();
        assertSame(Kinds.DEPLOYMENT, d, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: default}
                spec:
                  replicas: 0
                  selector: {matchLabels: {app: web}}
                  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%, maxSurge: 1}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: nginx, image: nginx, resources: {}}]}
                """);
        JsonNode container = ProtobufJson.object(read(d)).path("spec").path("template").path("spec").path("containers")
                .get(0);
        assertTrue(container.path("resources").isObject(), container.toString());
    }

    @Test
    @DisplayName("a Lease: MicroTime with microseconds, Time-less fields absent")
    void lease() {
        V1Coordination.Lease lease = V1Coordination.Lease.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("leader"))
                .setSpec(V1Coordination.LeaseSpec.newBuilder().setHolderIdentity("a").setLeaseDurationSeconds(15)
                        .setAcquireTime(Meta.MicroTime.newBuilder().setSeconds(1_700_000_000L).setNanos(123_456_000))
                        .setRenewTime(Meta.MicroTime.newBuilder().setSeconds(1_700_000_010L)))
                .build();
        assertSame(Kinds.LEASE, lease, """
                apiVersion: coordination.k8s.io/v1
                kind: Lease
                metadata: {name: leader}
                spec:
                  holderIdentity: a
                  leaseDurationSeconds: 15
                  acquireTime: "2023-11-14T22:13:20.123456Z"
                  renewTime: "2023-11-14T22:13:30.000000Z"
                """);
    }

    @Test
    @DisplayName("a Secret: bytes as base64 (not text), a Time at the second")
    void secret() {
        V1.Secret secret = V1.Secret.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("s")
                        .setDeletionTimestamp(Meta.Time.newBuilder().setSeconds(1_700_000_000L).setNanos(5)))
                .putData("bin", ByteString.copyFrom(new byte[]{(byte) 0xff, 0, 1}))
                .putData("text", ByteString.copyFrom("x", StandardCharsets.UTF_8))
                .setType("Opaque")
                .build();
        ObjectNode json = ProtobufJson.object(read(secret));
        assertEquals("/wAB", json.path("data").path("bin").textValue());
        assertEquals("eA==", json.path("data").path("text").textValue());
        assertEquals("2023-11-14T22:13:20Z", json.path("metadata").path("deletionTimestamp").textValue());
        assertSame(Kinds.SECRET, secret, """
                apiVersion: v1
                kind: Secret
                metadata: {name: s, deletionTimestamp: "2023-11-14T22:13:20Z"}
                data: {bin: /wAB, text: eA==}
                type: Opaque
                """);
    }

    @Test
    @DisplayName("a Job and a CronJob: backoffLimit 0 and successfulJobsHistoryLimit 0 are kept, a false suspend is not")
    void jobs() {
        V1.PodTemplateSpec template = V1.PodTemplateSpec.newBuilder().setSpec(V1.PodSpec.newBuilder()
                .setRestartPolicy("Never").addContainers(V1.Container.newBuilder().setName("c").setImage("busybox")))
                .build();
        V1Batch.Job job = V1Batch.Job.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("j"))
                .setSpec(V1Batch.JobSpec.newBuilder().setBackoffLimit(0).setParallelism(2).setSuspend(false)
                        .setTemplate(template))
                .build();
        assertSame(Kinds.JOB, job, """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec:
                  backoffLimit: 0
                  parallelism: 2
                  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}
                """);
        V1Batch.CronJob cron = V1Batch.CronJob.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("c"))
                .setSpec(V1Batch.CronJobSpec.newBuilder().setSchedule("*/5 * * * *").setSuccessfulJobsHistoryLimit(0)
                        .setJobTemplate(V1Batch.JobTemplateSpec.newBuilder().setSpec(V1Batch.JobSpec.newBuilder()
                                .setTemplate(template))))
                .build();
        assertSame(Kinds.CRON_JOB, cron, """
                apiVersion: batch/v1
                kind: CronJob
                metadata: {name: c}
                spec:
                  schedule: "*/5 * * * *"
                  successfulJobsHistoryLimit: 0
                  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
                """);
    }

    @Test
    @DisplayName("a ControllerRevision's RawExtension is the JSON it carries; bytes that are not JSON are refused")
    void rawExtension() {
        String data = "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},"
                + "\"$patch\":\"replace\"}}}";
        V1Apps.ControllerRevision revision = V1Apps.ControllerRevision.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("web-1")).setRevision(1)
                .setData(RawExtension.newBuilder().setRaw(ByteString.copyFromUtf8(data)))
                .build();
        assertSame(Kinds.CONTROLLER_REVISION, revision, """
                apiVersion: apps/v1
                kind: ControllerRevision
                metadata: {name: web-1}
                revision: 1
                data: %s
                """.formatted(data));
        V1Apps.ControllerRevision notJson = revision.toBuilder()
                .setData(RawExtension.newBuilder().setRaw(ByteString.copyFrom(new byte[]{'k', '8', 's', 0}))).build();
        assertThrows(IllegalArgumentException.class, () -> ProtobufJson.object(read(notJson)));
    }

    @Test
    @DisplayName("meta/v1 Duration as Go prints a time.Duration")
    void durations() {
        assertEquals("\"1m30s\"", ProtobufJson.value(read(Meta.Duration.newBuilder().setDuration(90_000_000_000L)
                .build())).toString());
        long second = 1_000_000_000L;
        assertEquals("0s", ProtobufJson.goDuration(0));
        assertEquals("1ns", ProtobufJson.goDuration(1));
        assertEquals("1.5µs", ProtobufJson.goDuration(1_500));
        assertEquals("1.5ms", ProtobufJson.goDuration(1_500_000));
        assertEquals("999.999999ms", ProtobufJson.goDuration(999_999_999));
        assertEquals("1s", ProtobufJson.goDuration(second));
        assertEquals("1h0m0s", ProtobufJson.goDuration(3600 * second));
        assertEquals("1h2m3.5s", ProtobufJson.goDuration(3723 * second + second / 2));
        assertEquals("-1.5s", ProtobufJson.goDuration(-3 * second / 2));
        assertEquals("-2562047h47m16.854775808s", ProtobufJson.goDuration(Long.MIN_VALUE));
    }

    @Test
    @DisplayName("a CertificateSigningRequest sent back as read (kubectl certificate approve): bytes as base64, "
            + "managedFields' FieldsV1 as its JSON")
    void certificateSigningRequestWithManagedFields() {
        V1Certificates.CertificateSigningRequest csr = V1Certificates.CertificateSigningRequest.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("jane").addManagedFields(Meta.ManagedFieldsEntry
                        .newBuilder().setManager("kubectl").setOperation("Update").setFieldsType("FieldsV1")
                        .setFieldsV1(Meta.FieldsV1.newBuilder().setRaw(ByteString.copyFromUtf8("{\"f:spec\":{}}")))))
                .setSpec(V1Certificates.CertificateSigningRequestSpec.newBuilder()
                        .setRequest(ByteString.copyFromUtf8("pem")).setSignerName("example.com/s").addUsages("client auth"))
                .setStatus(V1Certificates.CertificateSigningRequestStatus.newBuilder().addConditions(
                        V1Certificates.CertificateSigningRequestCondition.newBuilder().setType("Approved")
                                .setStatus("True").setLastUpdateTime(Meta.Time.newBuilder().setSeconds(1_700_000_000))))
                .build();
        ObjectNode json = ProtobufJson.object(read(csr));
        assertEquals("{\"f:spec\":{}}", json.path("metadata").path("managedFields").path(0).path("fieldsV1").toString());
        assertEquals("cGVt", json.path("spec").path("request").asText());
        assertEquals("2023-11-14T22:13:20Z", json.path("status").path("conditions").path(0).path("lastUpdateTime")
                .asText());
    }

    @Test
    @DisplayName("an IntOrString of an unknown type is refused, as Go refuses to write it")
    void impossibleIntOrString() {
        V1.ServicePort port = V1.ServicePort.newBuilder().setPort(80)
                .setTargetPort(IntOrString.newBuilder().setType(7)).build();
        assertThrows(IllegalArgumentException.class, () -> ProtobufJson.object(read(port)));
    }

    /** Both readings decode, strictly, to the same record. */
    private static void assertSame(KindInfo kind, Message message, String manifest) {
        ObjectNode json = ProtobufJson.object(read(message));
        json.put("apiVersion", kind.apiVersion());
        json.put("kind", kind.kind());
        SpecificRecord fromProtobuf = KubeJson.get().decode(json, kind, FieldValidation.STRICT).value();
        SpecificRecord fromManifest = KubeJson.get().parseObject(manifest.getBytes(StandardCharsets.UTF_8), kind,
                FieldValidation.STRICT, null);
        assertEquals(fromManifest, fromProtobuf, json.toString());
    }

    /** The message as the gateway sees it: bytes parsed over the descriptor. */
    private static Message read(Message built) {
        try {
            return DynamicMessage.parseFrom(built.getDescriptorForType(), built.toByteString());
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
