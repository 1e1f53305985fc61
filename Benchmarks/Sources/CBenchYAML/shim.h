#ifndef EASYBAKE_BENCH_YAML_SHIM_H
#define EASYBAKE_BENCH_YAML_SHIM_H
#include <yaml.h>
#endif
