#!/bin/bash
export KUBECONFIG=/tmp/ep-demo/kubeconfig
cd /work/main
kubectl create namespace spread >/dev/null 2>&1
cat <<'Y' | kubectl apply -n spread -f -
apiVersion: apps/v1
kind: Deployment
metadata: {name: spread}
spec:
  replicas: 20
  selector: {matchLabels: {app: spread}}
  template:
    metadata: {labels: {app: spread}}
    spec:
      containers: [{name: nginx, image: nginx:1.14.2, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
Y
kubectl rollout status -n spread deployment/spread --timeout=120s
echo "placement before:"; kubectl get pods -n spread -o wide --no-headers | awk '{print $7}' | sort | uniq -c
victim=node-3
on_victim=$(kubectl get pods -n spread -o wide --no-headers | awk -v n=$victim '$7==n' | wc -l)
echo "$on_victim replicas on $victim"
t0=$(date +%s)
echo "failing $victim at $(date -u +%T)"
./eventplane node fail $victim --data-dir /tmp/ep-demo
while true; do
  now=$(date +%s)
  ready=$(kubectl get node $victim --no-headers 2>/dev/null | awk '{print $2}')
  running_elsewhere=$(kubectl get pods -n spread -o wide --no-headers | awk -v n=$victim '$3=="Running" && $7!=n' | wc -l)
  total=$(kubectl get pods -n spread --no-headers | wc -l)
  echo "t+$((now-t0))s node=$ready running-elsewhere=$running_elsewhere pods=$total"
  if [ "$running_elsewhere" -ge 20 ]; then echo "ALL 20 RUNNING ON OTHER NODES after $((now-t0)) s"; break; fi
  if [ $((now-t0)) -gt 600 ]; then echo "TIMEOUT"; break; fi
  sleep 10
done
kubectl get pods -n spread -o wide --no-headers | awk '{print $3, $7}' | sort | uniq -c
kubectl describe node $victim | grep -A3 Taints
