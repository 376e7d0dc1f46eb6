"""Pairing systems: Berger round robin, 积分编排制 Swiss, knock-out, McMahon."""
