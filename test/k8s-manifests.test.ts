// deploy/k8s (kustomize): every object of every resource the kustomization lists is valid against the API
// schemas of a pinned Kubernetes version (kubernetes-models 4.5.1: Kubernetes 1.27), and the objects say
// what the operations guide promises: readiness on /ready and liveness on /health, a 512 MiB memory limit,
// no root and a read-only root file system for every container, a Service and a disruption budget that
// select the replicas, an autoscaler of their Deployment, settings the server accepts, and a CronJob that
// runs the update job and publishes to the store the replicas pull from.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { loadConfig } from '../src/config/env.js';
import { projectRoot } from '../src/shared/project-root.js';

const DIR = join(projectRoot(), 'deploy', 'k8s');

// The objects as YAML gives them: their specs are walked by path below, as the assertions name them.
/* eslint-disable @typescript-eslint/no-explicit-any */
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: any; data?: Record<string, string> };

/** The models that validate each kind, by apiVersion/kind. */
const MODELS: Record<string, new (o: any) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/CronJob': CronJob,
};

describe('deploy/k8s (kubectl apply -k)', () => {
  const kustomization = parseYaml(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8')) as { namespace: string; resources: string[]; images: Array<{ name: string }> };
  const objects: Array<K8sObject & { file: string }> = kustomization.resources.flatMap((file) =>
    parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => {
      expect(d.errors.map(String), file).to.deep.equal([]);
      return { ...(d.toJS() as K8sObject), file };
    }));
  const one = (kind: string, name: string) => {
    const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
    expect(o, `${kind} ${name}`).to.not.equal(undefined);
    return o!;
  };

  it('validates every object against the Kubernetes 1.27 API schemas', () => {
    expect(objects.length).to.be.greaterThan(8);
    for (const o of objects) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      expect(Model, `${o.file}: ${o.apiVersion} ${o.kind} has a model`).to.not.equal(undefined);
      const object: Partial<typeof o> = { ...o };
      delete object.file;
      expect(() => new Model!(object).validate(), `${o.file}: ${o.kind} ${o.metadata.name}`).to.not.throw();
    }
    expect(kustomization.namespace).to.equal(one('Namespace', 'vtqs').metadata.name);
  });

  it('probes readiness on /ready and liveness on /health, limits memory to 512 MiB, runs without root on a read-only root', () => {
    const deployment = one('Deployment', 'vtqs');
    const pod = deployment.spec.template.spec;
    const [c] = pod.containers;
    expect(c.readinessProbe.httpGet).to.include({ path: '/ready' });
    expect(c.livenessProbe.httpGet).to.include({ path: '/health' });
    expect(c.resources.limits.memory).to.equal('512Mi');
    expect(c.resources.requests).to.have.keys('cpu', 'memory');
    expect(kustomization.images.map((i) => i.name)).to.include(c.image);
    for (const d of objects.filter((o) => o.kind === 'Deployment' || o.kind === 'CronJob')) {
      const spec = d.kind === 'CronJob' ? d.spec.jobTemplate.spec.template.spec : d.spec.template.spec;
      expect(spec.securityContext.runAsNonRoot, d.metadata.name).to.equal(true);
      for (const k of spec.containers) {
        expect(k.securityContext, `${d.metadata.name}/${k.name}`).to.include({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
        // every path a container writes is a volume
        expect(k.volumeMounts.map((m: { mountPath: string }) => m.mountPath), `${d.metadata.name}/${k.name}`).to.include('/tmp');
      }
    }
    // A stopping pod answers 503 on /ready for SHUTDOWN_DELAY_MS: longer than the probe takes to see it.
    const config = one('ConfigMap', 'vtqs').data!;
    expect(Number(config.SHUTDOWN_DELAY_MS)).to.be.greaterThan(c.readinessProbe.periodSeconds * c.readinessProbe.failureThreshold * 1000);
    expect(Number(config.SHUTDOWN_DELAY_MS) / 1000).to.be.below(pod.terminationGracePeriodSeconds);
  });

  it('has a Service and a disruption budget that select the replicas, and an autoscaler of their Deployment', () => {
    const labels = one('Deployment', 'vtqs').spec.template.metadata.labels;
    for (const selector of [one('Service', 'vtqs').spec.selector, one('PodDisruptionBudget', 'vtqs').spec.selector.matchLabels]) {
      expect(labels).to.include(selector);
    }
    const hpa = one('HorizontalPodAutoscaler', 'vtqs').spec;
    expect(hpa.scaleTargetRef).to.deep.equal({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'vtqs' });
    expect(hpa.minReplicas).to.be.at.least(2);
    expect(one('Service', 'vtqs-bundles').spec.selector).to.deep.equal(one('Deployment', 'vtqs-bundles').spec.template.metadata.labels);
  });

  it('configures the server with settings it accepts, pulling from the bundle store of the cluster', () => {
    const data = one('ConfigMap', 'vtqs').data!;
    const config = loadConfig({ ...data, DATA_DIR: '/data' });
    expect(config.dataUrl).to.equal(`http://${one('Service', 'vtqs-bundles').metadata.name}/latest`);
    expect(config.shutdownDelayMs).to.equal(Number(data.SHUTDOWN_DELAY_MS));
  });

  it('runs the update job on a schedule, publishing to the volume the bundle store serves', () => {
    const job = one('CronJob', 'vtqs-update').spec;
    expect(job.concurrencyPolicy).to.equal('Forbid');
    const pod = job.jobTemplate.spec.template.spec;
    const [c] = pod.containers;
    expect(c.command.slice(0, 2)).to.deep.equal(['node', 'dist/build/update.js']);
    const publishTo = c.command[c.command.indexOf('--publish') + 1];
    expect(c.command[c.command.indexOf('--source') + 1]).to.equal('$(UPDATE_SOURCE_URL)');
    expect(one('ConfigMap', 'vtqs').data!.UPDATE_SOURCE_URL).to.match(/^https:\/\//);
    const mount = c.volumeMounts.find((m: { mountPath: string }) => m.mountPath === publishTo);
    const claim = pod.volumes.find((v: { name: string }) => v.name === mount.name).persistentVolumeClaim.claimName;
    const served = one('Deployment', 'vtqs-bundles').spec.template.spec.volumes.find((v: { persistentVolumeClaim?: { claimName: string } }) => v.persistentVolumeClaim);
    expect(served.persistentVolumeClaim.claimName).to.equal(claim);
    expect(one('PersistentVolumeClaim', claim).spec.accessModes).to.include('ReadWriteMany');
  });
});
