"""Many products across processes through Dask: a LocalCluster of two
worker processes maps polymul over a list of pairs."""

import pytest

import gfpf
from conftest import field, random_values

distributed = pytest.importorskip("dask.distributed", reason="dask[distributed] is not installed")


def test_products_on_a_local_cluster_equal_the_local_ones():
    f = field("t8")
    pairs = [(random_values(f, 200 + 50 * i, i), random_values(f, 300, 100 + i)) for i in range(8)]
    local = [gfpf.polymul(a, b, field=f) for a, b in pairs]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster, distributed.Client(cluster) as client:
        # Fields and polynomials travel by pickle to the worker processes.
        futures = client.map(gfpf.polymul, [a for a, _ in pairs], [b for _, b in pairs], field=f)
        remote = client.gather(futures)
        polys = client.gather(client.map(lambda a: f.poly(a) ** 2, [a for a, _ in pairs[:2]]))
        workers = client.run(lambda: __import__("os").getpid())
    assert remote == local
    assert polys == [f.poly(a) ** 2 for a, _ in pairs[:2]]
    assert len(set(workers.values())) == 2
