#ifndef EASYBAKE_CYAML_SHIM_H
#define EASYBAKE_CYAML_SHIM_H
#include <yaml.h>
#endif
