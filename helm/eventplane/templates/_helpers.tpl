{{- define "eventplane.labels" -}}
app.kubernetes.io/name: eventplane
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{- define "eventplane.env" -}}
- name: EVENTPLANE_KAFKA_BOOTSTRAP
  value: {{ .Values.kafka.bootstrap | quote }}
- name: EVENTPLANE_REGISTRY_URL
  value: {{ .Values.schemaRegistry.url | quote }}
- name: EVENTPLANE_TOPIC_PREFIX
  value: {{ .Values.log.topicPrefix | quote }}
- name: EVENTPLANE_PARTITIONS
  value: {{ .Values.log.partitions | quote }}
- name: EVENTPLANE_REPLICATION_FACTOR
  value: {{ .Values.kafka.replicationFactor | quote }}
{{- range $name, $value := .Values.kafka.clientProperties }}
- name: EVENTPLANE_KAFKA_PROP_{{ $name | upper | replace "." "_" }}
  value: {{ $value | quote }}
{{- end }}
{{- range $name, $ref := .Values.kafka.clientPropertiesFromSecrets }}
- name: EVENTPLANE_KAFKA_PROP_{{ $name | upper | replace "." "_" }}
  valueFrom:
    secretKeyRef: {name: {{ $ref.secret | quote }}, key: {{ $ref.key | quote }}}
{{- end }}
{{- with .Values.schemaRegistry.basicAuthSecret }}
- name: EVENTPLANE_REGISTRY_BASIC_AUTH_USER_INFO
  valueFrom:
    secretKeyRef: {name: {{ .secret | quote }}, key: {{ .key | quote }}}
{{- end }}
{{- end -}}

{{/* One Deployment of the image running one service's main class. */}}
{{- define "eventplane.deployment" -}}
{{- $root := .root -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $root.Release.Name }}-{{ .name }}
  labels:
    {{- include "eventplane.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .name }}
spec:
  replicas: {{ .values.replicas }}
  selector:
    matchLabels:
      app.kubernetes.io/instance: {{ $root.Release.Name }}
      app.kubernetes.io/component: {{ .name }}
  template:
    metadata:
      labels:
        {{- include "eventplane.labels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ .name }}
    spec:
      containers:
      - name: {{ .name }}
        image: "{{ $root.Values.image.repository }}:{{ $root.Values.image.tag }}"
        imagePullPolicy: {{ $root.Values.image.pullPolicy }}
        args: [{{ .main | quote }}]
        env:
        {{- include "eventplane.env" $root | nindent 8 }}
        {{- with $root.Values.commandCredentials.secretName }}
        {{- /* the writer holds the cluster's command secret, every other service only its own credential */}}
        - name: {{ if eq $.credential "secret" }}EVENTPLANE_COMMAND_SECRET{{ else }}EVENTPLANE_COMMAND_CREDENTIAL{{ end }}
          valueFrom:
            secretKeyRef: {name: {{ . | quote }}, key: {{ $.credential | quote }}}
        {{- end }}
        - name: JAVA_OPTS
          value: {{ .values.javaOpts | quote }}
        {{- with .extraEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- with .ports }}
        ports:
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- with .probe }}
        readinessProbe:
          {{- toYaml . | nindent 10 }}
        {{- end }}
        resources:
          {{- toYaml .values.resources | nindent 10 }}
{{- end -}}
