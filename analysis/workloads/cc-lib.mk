# SPDX-License-Identifier: GPL-2.0
# A real build for the workload comparison: compile knotif's own lib/ (all
# its parts) with cc and archive it, the way make drives any small C project (one cc, cc1,
# as per file; headers opened by the hundred). Run with make -B so every
# run does the whole build.
#
#   make -B -j1 -f analysis/workloads/cc-lib.mk OUT=/tmp/cc-lib
KNOTIF ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
OUT ?= /tmp/knotif-workload-cc-lib
CC ?= cc

# every part of lib/ (lib/PART/*.c), each object named after its source
PARTS := $(sort $(notdir $(patsubst %/,%,$(wildcard $(KNOTIF)/lib/*/))))
SRC := $(sort $(wildcard $(KNOTIF)/lib/*/*.c))
OBJ := $(addprefix $(OUT)/,$(notdir $(SRC:.c=.o)))
vpath %.c $(PARTS:%=$(KNOTIF)/lib/%)
# the definitions CMake passes; values do not matter to the workload
CFLAGS := -O2 -g -D_GNU_SOURCE -DKNOTIF_VERSION='"workload"' -DKNOTIF_BUILD_TYPE='"workload"' \
	$(PARTS:%=-I$(KNOTIF)/lib/%) -I$(OUT) $(shell pkg-config --cflags jansson)

$(OUT)/libknotif.a: $(OBJ)
	ar rcs $@ $^

$(OUT)/%.o: %.c | $(OUT)/knotif_git_sha.h
	$(CC) $(CFLAGS) -c -o $@ $<

# what cmake/git-sha.cmake generates in a CMake build
$(OUT)/knotif_git_sha.h: | $(OUT)
	echo '#define KNOTIF_GIT_SHA "workload"' >$@

$(OUT):
	mkdir -p $@
