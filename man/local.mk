# man/local.mk: man pages and the JSON Schema of the protocol.
# Included from the top-level Makefile.am, which defines man_MANS, CLEANFILES,
# EXTRA_DIST and dist_pkgdata_DATA first; paths are relative to the top dir.
#
# The pages are nroff templates whose version placeholder is substituted here.
# man/mpiprof.7 also gets its ENVIRONMENT section generated from the
# library's configuration table; its rule lives with that generator.

man_MANS += man/mpiprof.7 man/mpicc-prof.1 man/mpiprof-protocol.5 man/mpiprof_interval_begin.3 \
	man/mpiprof-hang.1 man/mpiprof-merge.1 man/mpiprof-view.1 man/mpiprof-compare.1 man/mpiprof-trace.5
if HAVE_OTF2
man_MANS += man/mpiprof-analyze.1
endif
CLEANFILES += man/mpiprof.7 man/mpicc-prof.1 man/mpiprof-protocol.5 man/mpiprof_interval_begin.3 \
	man/mpiprof-hang.1 man/mpiprof-merge.1 man/mpiprof-view.1 man/mpiprof-compare.1 man/mpiprof-trace.5 man/mpiprof-analyze.1
EXTRA_DIST += \
	man/mpiprof-analyze.1.in \
	man/mpiprof.7.in \
	man/mpicc-prof.1.in \
	man/mpiprof-protocol.5.in \
	man/mpiprof-trace.5.in \
	man/mpiprof_interval_begin.3.in \
	man/mpiprof-hang.1.in \
	man/mpiprof-merge.1.in \
	man/mpiprof-view.1.in \
	man/mpiprof-compare.1.in \
	schema/example-protocol.json

# Installed as $(pkgdatadir)/mpiprof-protocol.schema.json (and distributed).
dist_pkgdata_DATA += schema/mpiprof-protocol.schema.json

# [@] keeps config.status from substituting the pattern itself in Makefile.
mpiprof_man_subst = sed -e 's|[@]PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g'

man/mpicc-prof.1: $(srcdir)/man/mpicc-prof.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpicc-prof.1.in > $@.tmp && mv -f $@.tmp $@

man/mpiprof-protocol.5: $(srcdir)/man/mpiprof-protocol.5.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof-protocol.5.in > $@.tmp && mv -f $@.tmp $@

man/mpiprof-trace.5: $(srcdir)/man/mpiprof-trace.5.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof-trace.5.in > $@.tmp && mv -f $@.tmp $@

man/mpiprof-merge.1: $(srcdir)/man/mpiprof-merge.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof-merge.1.in > $@.tmp && mv -f $@.tmp $@

man/mpiprof_interval_begin.3: $(srcdir)/man/mpiprof_interval_begin.3.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof_interval_begin.3.in > $@.tmp && mv -f $@.tmp $@

man/mpiprof-hang.1: $(srcdir)/man/mpiprof-hang.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof-hang.1.in > $@.tmp && mv -f $@.tmp $@

man/mpiprof-view.1: $(srcdir)/man/mpiprof-view.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof-view.1.in > $@.tmp && mv -f $@.tmp $@

man/mpiprof-compare.1: $(srcdir)/man/mpiprof-compare.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof-compare.1.in > $@.tmp && mv -f $@.tmp $@

man/mpiprof-analyze.1: $(srcdir)/man/mpiprof-analyze.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof-analyze.1.in > $@.tmp && mv -f $@.tmp $@

# mpiprof-run(1): the command that preloads the library by its full path.
man_MANS += man/mpiprof-run.1
CLEANFILES += man/mpiprof-run.1
EXTRA_DIST += man/mpiprof-run.1.in
man/mpiprof-run.1: $(srcdir)/man/mpiprof-run.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	$(mpiprof_man_subst) $(srcdir)/man/mpiprof-run.1.in > $@.tmp && mv -f $@.tmp $@

# groff formats every page without a warning (tests/check-man.sh)
TESTS += tests/check-man.sh
EXTRA_DIST += tests/check-man.sh
AM_TESTS_ENVIRONMENT += MAN_PAGES='$(man_MANS)'; export MAN_PAGES;
