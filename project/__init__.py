"""The project as every stage reads it, with nothing imported: the project model
(`project.model`: which lessons and companions there are, their pages, imports, public
names and code hashes) and the page reader (`project.reading`: a page's blocks, code
spans and `# →` lines, parsed as text). The figure build (figures_build/), the site build
(site_build/), the experiments' provenance and the tests all read the project here.
It imports no other package of this repository.
"""
