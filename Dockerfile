# The image every Helm Deployment runs; the first argument names the service's main class.
# Build the project first (./mvnw -DskipTests install), then: docker build -t eventplane:0.1.0 .
FROM eclipse-temurin:17-jre
WORKDIR /app
COPY launcher/target/lib/ /app/lib/
COPY launcher/target/classes/ /app/classes/
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.eventplane -Dlog4j2.configurationFile=log4j2-eventplane.xml -Deventplane.log.dir=/tmp/logs -cp '/app/classes:/app/lib/*' \"$0\" \"$@\""]
