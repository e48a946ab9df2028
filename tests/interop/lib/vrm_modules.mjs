// The three.js and @pixiv/three-vrm(-animation) modules the VRM checks use, imported once
// requireModules() has checked that `npm ci` was run (a missing package is a usage error that
// names the fix, not an import failure).

import { requireModules } from './common.mjs';

export async function importVrmModules() {
  requireModules(['three', '@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
  const THREE = await import('three');
  const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
  const { BVHLoader } = await import('three/addons/loaders/BVHLoader.js');
  const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
  const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
    await import('@pixiv/three-vrm-animation');
  return {
    THREE, GLTFLoader, BVHLoader, VRMLoaderPlugin, VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy,
    createVRMAnimationClip,
  };
}
