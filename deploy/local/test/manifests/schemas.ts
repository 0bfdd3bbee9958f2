// Kubernetes schemas for the manifest tests (kubernetes-models), and the fields a pod and a container may have:
// the schemas accept unknown fields, so typos are caught by these lists.
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import type { Obj } from './kustomize';

// ---- schema validation -------------------------------------------------------------------------------------
export const MODELS: Record<string, { validate(): void } & (new (o: Obj) => { validate(): void })> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
} as never;

/** Fields of a container (core/v1 Container): the schemas accept unknown fields, so typos are caught here. */
export const CONTAINER_FIELDS = new Set([
  'name',
  'image',
  'imagePullPolicy',
  'command',
  'args',
  'workingDir',
  'ports',
  'env',
  'envFrom',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
]);
export const POD_FIELDS = new Set([
  'containers',
  'initContainers',
  'volumes',
  'securityContext',
  'serviceAccountName',
  'automountServiceAccountToken',
  'terminationGracePeriodSeconds',
  'topologySpreadConstraints',
  'affinity',
  'nodeSelector',
  'tolerations',
  'imagePullSecrets',
  'priorityClassName',
  'enableServiceLinks',
]);
